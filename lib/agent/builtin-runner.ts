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
import { scrubEnvironment } from "./tools/environment.ts";

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

export function createBuiltinRunner(options: BuiltinRunnerOptions): AgentRunner {
  const apiKey = options.env["ANTHROPIC_API_KEY"];

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
          toolbox: registryToolbox(execute.readOnly ?? false, execute.tools),
          shell: options.shell,
          hooks: options.hooks ?? [],
          env: scrubEnvironment(options.env),
          maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
          trim: { ...DEFAULT_TRIM_POLICY, ...options.trim },
          sleep: options.sleep ?? defaultSleep,
          now: options.now ?? Date.now,
        },
        execute,
      ),
  };
}
