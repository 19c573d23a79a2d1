/**
 * The contract between the subprocess runner and one coding-agent CLI: how
 * to start it (`CliSpec`), how its event stream is read (`StreamParser`), and
 * what a parser reports into (`RunTally`, which the ACP runner reports into
 * too). Types only, so a CLI's spec and parser can be read without the runner.
 */
import type { AgentEvent } from "../events.ts";
import type { ExecuteOptions, Provider, StopReason, ToolCallRecord } from "../runner.ts";
import type { Usage } from "../usage.ts";
import type { JsonLinesOutcome } from "./json-lines-process.ts";

/** What a parser reports into while the CLI runs. */
export interface RunTally {
  emit(event: AgentEvent): void;
  /** A model turn's usage; its cost from the price table unless the CLI reports one. */
  turn(usage: Usage, reportedCostUsd?: number): void;
  tool(call: ToolCallRecord): void;
  fileChanged(path: string): void;
  /** Stops the CLI (e.g. at the cost limit); the parser's `finish` still runs. */
  stop(reason: StopReason, message: string): void;
}

export interface ParsedEnd {
  readonly success: boolean;
  readonly stop: StopReason;
  readonly summary: string;
  readonly error?: string;
  /** The CLI's structured output, when the run asked for one and the CLI reports it apart from the text. */
  readonly structured?: unknown;
  /** Totals the CLI reports at the end; they replace the per-turn sums when present. */
  readonly usage?: Usage;
  readonly costUsd?: number;
  readonly turns?: number;
}

export interface StreamParser {
  onValue(value: unknown): void;
  finish(outcome: JsonLinesOutcome): ParsedEnd;
}

/** The JSON Schema a run's final answer must follow: as text, and as a file for CLIs that read one. */
export interface AnswerSchema {
  readonly json: string;
  readonly file: string;
}

export interface CliSpec {
  readonly provider: Provider;
  readonly command: string;
  readonly install: string;
  args(options: ExecuteOptions, schema?: AnswerSchema): string[];
  stdin(options: ExecuteOptions): string;
  /** The child's environment: scrubbed, plus the credentials the CLI itself needs. */
  env(env: Readonly<Record<string, string | undefined>>): Record<string, string>;
  parser(tally: RunTally, options: ExecuteOptions): StreamParser;
}
