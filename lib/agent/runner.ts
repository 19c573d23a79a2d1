/**
 * The one interface every agent provider implements — the built-in tool loop, the Claude Code
 * and Codex CLIs run as subprocesses, and any Agent Client Protocol agent with Locus as its
 * client. Types only: the providers import it, so the factory that picks one from config
 * lives apart (`create-runner.ts`).
 */
import type { AgentHook, AgentTool, ShellPolicy } from "./tool.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { AgentEventListener } from "./events.ts";
import type { Usage } from "./usage.ts";
import type { ConfiguredPrices } from "./pricing.ts";
import type { PROVIDERS } from "../config/schema.ts";
import type { McpServerSettings } from "./mcp/mcp-server-settings.ts";
import type { AttachedImage } from "../attachments/attached-image.ts";

export type Provider = (typeof PROVIDERS)[number];

export interface RunnerPrompt {
  /** Rules and instructions (LOCUS.md / AGENTS.md, learnings): stable across tasks. */
  readonly system: string;
  /** Repository context (file tree, recent log): stable within a task. */
  readonly context: string;
  /** The task itself: issue, sprint position, feedback. */
  readonly task: string;
  /** Images attached to the trusted text (lib/task/issue-images.ts), shown with the task. */
  readonly images?: readonly AttachedImage[];
}

export interface ExecuteOptions {
  readonly prompt: RunnerPrompt;
  /** Absolute path of the worktree the agent works in. */
  readonly cwd: string;
  readonly model: string;
  readonly maxTurns: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: AgentEventListener;
  /** Prices from config for models Locus has no list price for (or overrides). */
  readonly prices?: ConfiguredPrices;
  /** Spend limit in US dollars; the task stops cleanly once a turn reaches it. */
  readonly maxCostUsd?: number;
  /** Wall-clock limit for the whole task. */
  readonly timeLimitMs?: number;
  /** Plan, review and ask modes get read-only tools. */
  readonly readOnly?: boolean;
  /** Tools of this task only, offered after the others: `propose_plan` in plan mode, `submit_review` in review mode. */
  readonly tools?: readonly AgentTool[];
}

export interface ToolCallRecord {
  readonly name: string;
  /** What it acted on: a path, a command, a search pattern. */
  readonly target: string;
  readonly ok: boolean;
  readonly summary: string;
}

export type StopReason =
  | "finished"
  | "end_turn"
  /** The agent asked a question (`ask_user`) and waits for a person's answer: a success. */
  | "asked"
  | "max_turns"
  | "time_limit"
  | "cost_limit"
  /** The agent's cost could not be counted while a cost limit was set (an ACP agent that reports none). */
  | "cost_unreported"
  | "aborted"
  | "api_error"
  | "failed";

export interface RunResult {
  readonly success: boolean;
  readonly summary: string;
  readonly error?: string;
  readonly stop: StopReason;
  readonly turns: number;
  readonly usage: Usage;
  /** 0 when the model's price is unknown (a `warning` event says so). */
  readonly costUsd: number;
  readonly toolCalls: readonly ToolCallRecord[];
  /** Paths written, relative to the worktree. */
  readonly filesChanged: readonly string[];
  /** Questions the agent asked (`ask_user`): the task waits for a person's answer to them. */
  readonly questions: readonly string[];
  /** What the agent said it did per review thread (iterate), from `finish`; absent when it did not say. */
  readonly threads?: readonly ThreadReport[];
}

export interface ThreadReport {
  /** The thread's label in the prompt (`T1`). */
  readonly thread: string;
  readonly addressed: boolean;
  readonly note: string;
}

export interface AgentRunner {
  readonly name: Provider;
  isAvailable(): Promise<boolean>;
  version(): Promise<string>;
  /** Rejects only with ProviderUnavailableError; every other failure is a result with `success: false`. */
  execute(options: ExecuteOptions): Promise<RunResult>;
}

/** Config `agent.acp`. */
export interface AcpSettings {
  readonly command?: string | readonly string[];
  /** Environment variables (the agent's credentials) it receives; every other secret is stripped. */
  readonly env: readonly string[];
  /** What a tool call counts for an agent that reports no cost (`runners/acp-cost.ts`). */
  readonly costPerToolCallUsd?: number;
}

/** What every provider needs from config and the environment. */
export interface RunnerOptions {
  /** Environment read for API keys and PATH; child processes get it stripped of secrets. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly shell: ShellPolicy;
  readonly hooks?: readonly AgentHook[];
  /** The `acp` provider's agent (config `agent.acp`). */
  readonly acp?: AcpSettings;
  /** MCP servers whose tools the agent gets (config `agent.mcpServers`). */
  readonly mcpServers?: readonly McpServerSettings[];
  /** Every process the agent starts runs in it: its tools' commands, or a CLI agent as a whole. */
  readonly sandbox?: Sandbox;
}
