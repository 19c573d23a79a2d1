/**
 * Runs one `bash -c` command for the agent. The command gets its own process group so a timeout
 * or an abort ends everything it started, and its output is piped back to us as data: it never
 * reaches our stdout, where a line such as `::add-mask::` or `::stop-commands::` would be read by
 * the Actions runner as a workflow command. In a sandbox it runs in the run's sandbox session
 * (`Sandbox.exec`); without one, straight from Locus's process.
 */
import { StringDecoder } from "node:string_decoder";
import { stripVTControlCharacters } from "node:util";
import { runHostCommand } from "../../sandbox/host-command.ts";
import type { CommandOutcome, CommandRequest, Sandbox } from "../../sandbox/sandbox.ts";
import { createOutputCollector } from "./output-buffer.ts";

/**
 * The bytes of output that cross from the command at all: far more than the collector keeps (its
 * head and tail are 15,000 characters each), so the cut it marks is where it always was.
 */
const HEAD_BYTES = 256 * 1024;
const TAIL_BYTES = 256 * 1024;

export interface ProcessOptions {
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Runs the shell inside this sandbox, with the sandbox's environment. */
  readonly sandbox?: Sandbox;
  /** A directory inside `cwd` to start in (WrapOptions.chdir); the sandbox still binds `cwd`. */
  readonly chdir?: string;
}

export interface ProcessOutcome {
  /** stdout and stderr in arrival order, head and tail kept, ANSI colour codes removed. */
  readonly output: string;
  /** The exit code, or 128 + the signal number when a signal ended the shell (as bash reports it). */
  readonly exitCode: number;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Set when the shell could not start at all. */
  readonly spawnError?: string;
}

export async function runProcess(options: ProcessOptions): Promise<ProcessOutcome> {
  const collector = createOutputCollector();
  const decoders = { 1: new StringDecoder("utf8"), 2: new StringDecoder("utf8") };
  const request: CommandRequest = {
    file: "bash",
    // `exec 2>&1` first: one stream keeps stdout and stderr in the order they were written.
    args: ["-c", `exec 2>&1; ${options.command}`],
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    headBytes: HEAD_BYTES,
    tailBytes: TAIL_BYTES,
    onOutput: (stream, chunk) => collector.push(decoders[stream].write(chunk)),
  };
  const outcome = options.sandbox
    ? await options.sandbox
        .exec(request, {
          cwd: options.cwd,
          env: options.env,
          ...(options.chdir === undefined ? {} : { chdir: options.chdir }),
        })
        // The sandbox itself failed (its init died): said to the agent like a shell that could not start.
        .catch((error: unknown) => sandboxFailure(error))
    : await runHostCommand(
        { file: "bash", args: request.args, cwd: options.chdir ?? options.cwd, env: options.env },
        request,
      );
  collector.push(decoders[1].end() + decoders[2].end());
  collector.unseen(outcome.droppedBytes);
  return {
    // Colour and cursor codes are noise to the model.
    output: stripVTControlCharacters(collector.text()),
    exitCode: outcome.exitCode,
    timedOut: outcome.timedOut,
    aborted: outcome.aborted,
    ...(outcome.spawnError === undefined ? {} : { spawnError: outcome.spawnError }),
  };
}

function sandboxFailure(error: unknown): CommandOutcome {
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: -1, timedOut: false, aborted: false, droppedBytes: 0, spawnError: message };
}
