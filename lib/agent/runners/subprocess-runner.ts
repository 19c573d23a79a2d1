/**
 * An AgentRunner that runs a coding-agent CLI (Claude Code, Codex) as a subprocess: PATH lookup,
 * `--version`, spawning with the prompt on stdin, turning its JSON event stream into Locus events
 * (through a per-CLI parser), limits and abort. The parser only maps the CLI's events; the tally
 * it reports into keeps the counts every runner returns.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, isAbsolute } from "node:path";
import { promisify } from "node:util";
import type { AgentEvent } from "../events.ts";
import { costLimitMessage, timeLimitMessage } from "../limit-messages.ts";
import { costUsd } from "../pricing.ts";
import type { AgentRunner, ExecuteOptions, RunResult, StopReason, ToolCallRecord } from "../runner.ts";
import { addUsage, NO_USAGE } from "../usage.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import { findExecutable } from "./find-executable.ts";
import { runJsonLines, type JsonLinesOutcome } from "./json-lines-process.ts";
import { commandNotFound } from "./provider-unavailable-error.ts";
import { structuredAnswerOf, type StructuredAnswer } from "./structured-answer.ts";
import type { AnswerSchema, CliSpec, ParsedEnd, RunTally } from "./cli-spec.ts";
import { confinedCli } from "./cli-confinement.ts";
import { takeAnswer } from "./take-answer.ts";
import { imageFiles } from "../prompt-images.ts";

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
    // The images, as files the CLI can open: its prompt is text.
    const images = await imageFiles(execute.prompt.task, execute.prompt.images);
    const schemaDir = answer ? await mkdtemp(join(tmpdir(), "locus-answer-schema-")) : undefined;
    const prompted: ExecuteOptions = { ...execute, prompt: { ...execute.prompt, task: images.task } };
    let outcome: JsonLinesOutcome;
    try {
      const schema = answer && schemaDir ? await writeAnswerSchema(answer, schemaDir) : undefined;
      const stdin = spec.stdin(prompted);
      const command = await confinedCli(
        spec,
        options,
        executable,
        spec.args(prompted, schema),
        execute.cwd,
        [schemaDir, images.dir].filter((dir) => dir !== undefined),
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
      await images.remove();
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

async function writeAnswerSchema(answer: StructuredAnswer, dir: string): Promise<AnswerSchema> {
  const json = JSON.stringify(answer.jsonSchema);
  const file = join(dir, `${answer.tool.name}.schema.json`);
  await writeFile(file, json);
  return { json, file };
}
