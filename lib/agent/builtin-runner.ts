/**
 * The `builtin` provider: the tool loop of agent-loop.ts on the official SDK. The client talks to
 * `ANTHROPIC_BASE_URL` when set and never retries on its own (Locus's retry policy does).
 */
import Anthropic from "@anthropic-ai/sdk";
import { VERSION } from "@anthropic-ai/sdk/version";
import { setTimeout as delay } from "node:timers/promises";
import { runAgentLoop } from "./agent-loop.ts";
import { DEFAULT_TRIM_POLICY, type TrimPolicy } from "./context-trim.ts";
import { registryToolbox } from "./registry-toolbox.ts";
import type { Sleep } from "./request-with-retries.ts";
import type { AgentRunner, RunnerOptions } from "./runner.ts";
import { ProviderUnavailableError } from "./runners/provider-unavailable-error.ts";
import { redactSecrets } from "../prompt/sanitize.ts";
import type { Toolbox } from "./agent-loop.ts";
import { scrubEnvironment, secretValues } from "./tools/environment.ts";

export interface BuiltinRunnerOptions extends RunnerOptions {
  /** A ready client (tests); otherwise one is built from `env`. */
  readonly client?: Anthropic;
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

export function createBuiltinRunner(options: BuiltinRunnerOptions): AgentRunner {
  const apiKey = options.env["ANTHROPIC_API_KEY"];
  const secrets = secretValues(options.env);

  function client(): Anthropic {
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
    execute: async (execute) =>
      runAgentLoop(
        {
          client: client(),
          toolbox: masked(registryToolbox(execute.readOnly ?? false, execute.tools), secrets),
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
      ),
  };
}
