/**
 * The `builtin` provider: the tool loop of agent-loop.ts on the official SDK. The client talks to
 * `ANTHROPIC_BASE_URL` when set and never retries on its own (Locus's retry policy does).
 */
import Anthropic from "@anthropic-ai/sdk";
import type { ModelClient } from "./model-client.ts";
import { VERSION } from "@anthropic-ai/sdk/version";
import { setTimeout as delay } from "node:timers/promises";
import { runAgentLoop } from "./agent-loop.ts";
import { DEFAULT_TRIM_POLICY, type TrimPolicy } from "./context-trim.ts";
import { registryToolbox } from "./registry-toolbox.ts";
import type { Sleep } from "./request-with-retries.ts";
import type { McpToolset } from "./mcp/mcp-tools.ts";
import type { AgentRunner, ExecuteOptions, RunnerOptions, RunResult } from "./runner.ts";
import { NO_USAGE } from "./usage.ts";
import { ProviderUnavailableError } from "./runners/provider-unavailable-error.ts";
import { redactSecrets } from "../prompt/sanitize.ts";
import type { Toolbox } from "./agent-loop.ts";
import { scrubEnvironment, secretValues } from "../sandbox/environment.ts";

export interface BuiltinRunnerOptions extends RunnerOptions {
  /** A ready client (a cloud host's from lib/model-host, or a test's); otherwise Anthropic's, built from `env`. */
  readonly client?: ModelClient;
  readonly maxTokens?: number;
  readonly trim?: Partial<TrimPolicy>;
  readonly sleep?: Sleep;
  readonly now?: () => number;
}

const DEFAULT_MAX_TOKENS = 16_000;

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal });
}

/**
 * Tool results reach the model, the PR's tool log and the job's output: whatever a tool found,
 * the secrets withheld from its environment (by value) and anything token-shaped are masked.
 */
function masked(toolbox: Toolbox, secrets: readonly string[]): Toolbox {
  const mask = (text: string): string => {
    let result = text;
    for (const secret of secrets) result = result.split(secret).join("***");
    return redactSecrets(result);
  };
  return {
    ...toolbox,
    run: async (name, input, context) => {
      const result = await toolbox.run(name, input, context);
      return {
        ...result,
        content: mask(result.content),
        summary: mask(result.summary),
        ...(result.diff === undefined ? {} : { diff: mask(result.diff) }),
      };
    },
  };
}

const NO_MCP: McpToolset = { tools: [], failures: [], close: () => Promise.resolve() };

/**
 * The configured MCP servers' tools; each one that fails to start is reported once as a warning,
 * and a required one stops the task before any model call.
 */
async function startMcpServers(
  options: BuiltinRunnerOptions,
  execute: ExecuteOptions,
): Promise<{ toolset: McpToolset; stop?: RunResult }> {
  const servers = options.mcpServers ?? [];
  if (servers.length === 0) return { toolset: NO_MCP };
  // The MCP client loads only for repositories that configure servers.
  const { connectMcpServers } = await import("./mcp/mcp-tools.ts");
  const toolset = await connectMcpServers(servers, {
    cwd: execute.cwd,
    env: options.env,
    readOnly: execute.readOnly ?? false,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  for (const failure of toolset.failures) {
    execute.onEvent?.({
      type: "warning",
      message: `MCP server ${failure.server} did not start${failure.required ? " (required)" : "; the task goes on without it"}: ${failure.message}`,
    });
  }
  const required = toolset.failures.find((failure) => failure.required);
  if (required === undefined) return { toolset };
  await toolset.close();
  const error = `the required MCP server ${required.server} did not start: ${required.message}`;
  execute.onEvent?.({ type: "error", message: error, retryable: false });
  execute.onEvent?.({
    type: "done",
    success: false,
    stats: { duration: 0, turns: 0, tools: 0, tokens: 0, costUsd: 0 },
  });
  return {
    toolset,
    stop: {
      success: false,
      summary: "",
      error,
      stop: "failed",
      turns: 0,
      usage: NO_USAGE,
      costUsd: 0,
      toolCalls: [],
      filesChanged: [],
      questions: [],
    },
  };
}

export function createBuiltinRunner(options: BuiltinRunnerOptions): AgentRunner {
  const apiKey = options.env["ANTHROPIC_API_KEY"];
  const secrets = secretValues(options.env);

  function client(): ModelClient {
    if (options.client) return options.client;
    if (!apiKey)
      throw new ProviderUnavailableError(
        "builtin",
        "ANTHROPIC_API_KEY is not set; pass the anthropic-api-key input",
      );
    return new Anthropic({ apiKey, baseURL: options.env["ANTHROPIC_BASE_URL"] ?? null, maxRetries: 0 });
  }

  return {
    name: "builtin",
    isAvailable: () => Promise.resolve(options.client !== undefined || Boolean(apiKey)),
    version: () => Promise.resolve(`builtin (@anthropic-ai/sdk ${VERSION})`),
    execute: async (execute) => {
      // The worktree's sandbox session starts while the model takes its first turn.
      options.sandbox?.prepare({ cwd: execute.cwd, env: {} });
      const anthropic = client();
      const mcp = await startMcpServers(options, execute);
      if (mcp.stop !== undefined) return mcp.stop;
      try {
        return await runAgentLoop(
          {
            client: anthropic,
            toolbox: masked(
              registryToolbox(execute.readOnly ?? false, [...(execute.tools ?? []), ...mcp.toolset.tools]),
              secrets,
            ),
            shell: options.shell,
            hooks: options.hooks ?? [],
            env: scrubEnvironment(options.env),
            ...(options.sandbox ? { sandbox: options.sandbox } : {}),
            maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
            trim: { ...DEFAULT_TRIM_POLICY, ...options.trim },
            sleep: options.sleep ?? defaultSleep,
            now: options.now ?? Date.now,
          },
          execute,
        );
      } finally {
        await mcp.toolset.close();
      }
    },
  };
}
