/**
 * An AgentRunner that runs a coding-agent CLI (Claude Code, Codex) as a subprocess: PATH lookup,
 * `--version`, spawning with the prompt on stdin, turning its JSON event stream into Locus events
 * (through a per-CLI parser), limits and abort. The parser only maps the CLI's events; the tally
 * it reports into keeps the counts every runner returns.
 */
import { execFile } from "node:child_process";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, isAbsolute } from "node:path";
import { promisify } from "node:util";
import type { AgentEvent } from "../events.ts";
import { costLimitMessage, timeLimitMessage } from "../limit-messages.ts";
import { costUsd } from "../pricing.ts";
import type {
  AgentRunner,
  ExecuteOptions,
  Provider,
  RunResult,
  StopReason,
  ToolCallRecord,
} from "../runner.ts";
import { addUsage, NO_USAGE, type Usage } from "../usage.ts";
import { programFiles } from "../../sandbox/program-files.ts";
import type { Sandbox, WrappedCommand } from "../../sandbox/sandbox.ts";
import { isSecretName } from "../tools/environment.ts";
import { findExecutable } from "./find-executable.ts";
import { runJsonLines, type JsonLinesOutcome } from "./json-lines-process.ts";
import { commandNotFound } from "./provider-unavailable-error.ts";
import { answerValue, recordAnswer, structuredAnswerOf, type StructuredAnswer } from "./structured-answer.ts";

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

const run = promisify(execFile);

/** A path the CLI reports (often absolute), relative to the worktree. */
export function worktreePath(cwd: string, path: string): string {
  return isAbsolute(path) ? relative(cwd, path) : path;
}

export function createSubprocessRunner(
  spec: CliSpec,
  options: {
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly now?: () => number;
    /** The CLI runs inside it as a whole process, with its own tools and everything they start. */
    readonly sandbox?: Sandbox;
  },
): AgentRunner {
  const now = options.now ?? Date.now;
  const locate = () => findExecutable(spec.command, options.env["PATH"]);

  async function execute(execute: ExecuteOptions): Promise<RunResult> {
    const executable = await locate();
    if (executable === undefined) throw commandNotFound(spec.provider, spec.command, spec.install);
    const started = now();
    const emit = (event: AgentEvent) => execute.onEvent?.(event);
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    execute.signal?.addEventListener("abort", onAbort, { once: true });
    if (execute.signal?.aborted) onAbort();
    let stopped: { reason: StopReason; message: string } | undefined;
    const timer =
      execute.timeLimitMs === undefined
        ? undefined
        : setTimeout(() => {
            stopped ??= {
              reason: "time_limit",
              message: timeLimitMessage(execute.timeLimitMs ?? 0),
            };
            controller.abort();
          }, execute.timeLimitMs).unref();

    let usage = NO_USAGE;
    let cost = 0;
    let turns = 0;
    const toolCalls: ToolCallRecord[] = [];
    const files = new Set<string>();
    const priced = costUsd(execute.model, NO_USAGE, execute.prices) !== undefined;
    // A CLI that reports its own cost is priced whatever Locus knows about the model.
    let reported = false;
    const tally: RunTally = {
      emit,
      turn(turnUsage, reportedCostUsd) {
        turns += 1;
        usage = addUsage(usage, turnUsage);
        if (reportedCostUsd !== undefined) reported = true;
        const turnCost = reportedCostUsd ?? costUsd(execute.model, turnUsage, execute.prices) ?? 0;
        cost += turnCost;
        emit({ type: "turn", turn: turns, usage: turnUsage, costUsd: turnCost });
        if (execute.maxCostUsd !== undefined && (priced || reported) && cost >= execute.maxCostUsd) {
          tally.stop("cost_limit", costLimitMessage(cost, execute.maxCostUsd));
        }
      },
      tool: (call) => toolCalls.push(call),
      fileChanged: (path) => files.add(path),
      stop(reason, message) {
        stopped ??= { reason, message };
        controller.abort();
      },
    };

    emit({
      type: "start",
      runner: spec.provider,
      model: execute.model,
      timestamp: new Date(started).toISOString(),
    });
    if (!priced) {
      emit({
        type: "warning",
        message: `no price known for model ${execute.model}: cost is reported as 0 unless the CLI reports it`,
      });
    }
    const parser = spec.parser(tally, execute);
    const answer = structuredAnswerOf(execute.tools);
    const schemaDir = answer ? await mkdtemp(join(tmpdir(), "locus-answer-schema-")) : undefined;
    let outcome: JsonLinesOutcome;
    try {
      const schema = answer && schemaDir ? await writeAnswerSchema(answer, schemaDir) : undefined;
      const stdin = spec.stdin(execute);
      const command = await confined(
        spec,
        options,
        executable,
        spec.args(execute, schema),
        execute.cwd,
        schemaDir,
      );
      outcome = await runJsonLines({
        executable: command.file,
        args: command.args,
        cwd: command.cwd,
        env: command.env,
        stdin: answer ? `${stdin}\n\n${answer.instruction}` : stdin,
        signal: controller.signal,
        onValue: (value) => parser.onValue(value),
      });
    } finally {
      if (schemaDir) await rm(schemaDir, { recursive: true, force: true });
    }
    clearTimeout(timer);
    execute.signal?.removeEventListener("abort", onAbort);

    const parsed = parser.finish(outcome);
    let end: ParsedEnd = controller.signal.aborted
      ? {
          success: false,
          stop: stopped?.reason ?? "aborted",
          summary: "",
          error: stopped?.message ?? "aborted",
        }
      : parsed;
    if (answer && end.success)
      end = await takeAnswer(answer, end, tally, execute.cwd, controller.signal, now);
    const finalUsage = parsed.usage ?? usage;
    const finalCost = parsed.costUsd ?? cost;
    const finalTurns = parsed.turns ?? turns;
    if (end.error !== undefined) emit({ type: "error", message: end.error, retryable: false });
    const tokens =
      finalUsage.inputTokens +
      finalUsage.outputTokens +
      finalUsage.cacheReadTokens +
      finalUsage.cacheWriteTokens;
    emit({
      type: "done",
      success: end.success,
      stats: {
        duration: now() - started,
        turns: finalTurns,
        tools: toolCalls.length,
        tokens,
        costUsd: finalCost,
      },
    });
    return {
      success: end.success,
      summary: end.summary,
      ...(end.error === undefined ? {} : { error: end.error }),
      stop: end.stop,
      turns: finalTurns,
      usage: finalUsage,
      costUsd: finalCost,
      toolCalls,
      filesChanged: [...files],
      questions: [],
    };
  }

  return {
    name: spec.provider,
    isAvailable: async () => (await locate()) !== undefined,
    async version() {
      const executable = await locate();
      if (executable === undefined) throw commandNotFound(spec.provider, spec.command, spec.install);
      const { stdout } = await run(executable, ["--version"], { env: spec.env(options.env) });
      return stdout.trim().split("\n")[0] ?? "";
    },
    execute,
  };
}

/**
 * The CLI's command line, inside the sandbox when there is one. Its environment is the spec's
 * (secrets stripped, its own credentials added); the credentials are the only secret-named
 * variables left in it, and they are passed on on purpose. The sandbox runs the CLI's real file
 * with its npm tree bound read-only: the reusable workflow installs it under the runner's home,
 * which the sandbox otherwise hides.
 */
async function confined(
  spec: CliSpec,
  options: { readonly env: Readonly<Record<string, string | undefined>>; readonly sandbox?: Sandbox },
  executable: string,
  args: readonly string[],
  cwd: string,
  schemaDir: string | undefined,
): Promise<WrappedCommand> {
  const env = spec.env(options.env);
  if (!options.sandbox) return { file: executable, args, env, cwd };
  const real = await realpath(executable);
  return options.sandbox.wrap(real, args, {
    cwd,
    env,
    keep: Object.keys(env).filter(isSecretName),
    readable: [...programFiles(real), ...(schemaDir ? [schemaDir] : [])],
  });
}

async function writeAnswerSchema(answer: StructuredAnswer, dir: string): Promise<AnswerSchema> {
  const json = JSON.stringify(answer.jsonSchema);
  const file = join(dir, `${answer.tool.name}.schema.json`);
  await writeFile(file, json);
  return { json, file };
}

/** A finished run's final answer handed to the task's tool, reported like a call of it; an invalid one fails the run. */
export async function takeAnswer(
  answer: StructuredAnswer,
  end: ParsedEnd,
  tally: RunTally,
  cwd: string,
  signal: AbortSignal,
  now: () => number,
): Promise<ParsedEnd> {
  const started = now();
  const id = `answer-${answer.tool.name}`;
  const params = { answer: "final structured output" };
  tally.emit({ type: "tool_started", id, tool: answer.tool.name, params });
  const recorded = await recordAnswer(answer, answerValue(end.structured, end.summary), {
    cwd,
    signal,
    // The task's tools only record their input: no shell, no files, no environment.
    shell: { allow: [], deny: ["*"], timeoutSeconds: 1 },
    hooks: [],
    env: {},
    onQuestion: () => undefined,
  });
  const summary = recorded.ok ? recorded.summary : recorded.error;
  tally.tool({ name: answer.tool.name, target: "", ok: recorded.ok, summary });
  tally.emit({
    type: "tool_completed",
    id,
    tool: answer.tool.name,
    duration: now() - started,
    ok: recorded.ok,
    summary,
  });
  return recorded.ok
    ? { ...end, summary: recorded.summary }
    : { ...end, success: false, stop: "failed", summary: "", error: recorded.error };
}

/** Exit status as a sentence, with the end of stderr: the error of a CLI that failed without saying why. */
export function exitError(command: string, outcome: JsonLinesOutcome): string {
  const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
  return outcome.stderr === "" ? `${command} ${how}` : `${command} ${how}: ${outcome.stderr}`;
}
