/**
 * Runs one `bash -c` command for the agent. The command gets its own process group so a timeout
 * or an abort ends everything it started, and its output is piped back to us as data: it never
 * reaches our stdout, where a line such as `::add-mask::` or `::stop-commands::` would be read by
 * the Actions runner as a workflow command.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { stripVTControlCharacters } from "node:util";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import { createOutputCollector } from "./output-buffer.ts";

/** Time a command gets after SIGTERM before its group is killed outright. */
const KILL_GRACE_MS = 2_000;
/** Time to wait for the pipes after the shell exits, in case a process left the group and holds them. */
const PIPE_GRACE_MS = 1_000;

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
  // `exec 2>&1` first: one stream keeps stdout and stderr in the order they were written.
  const shell = ["-c", `exec 2>&1; ${options.command}`];
  const chdir = options.chdir === undefined ? {} : { chdir: options.chdir };
  const command = options.sandbox
    ? await options.sandbox.wrap("bash", shell, { cwd: options.cwd, env: options.env, ...chdir })
    : { file: "bash", args: shell, env: options.env, cwd: options.chdir ?? options.cwd };
  return new Promise((resolve) => {
    const collector = createOutputCollector();
    const child = spawn(command.file, [...command.args], {
      cwd: command.cwd,
      env: command.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let timedOut = false;
    let aborted = false;
    let exitCode: number | undefined;
    let settled = false;
    let escalation: NodeJS.Timeout | undefined;
    let pipeWait: NodeJS.Timeout | undefined;

    function killGroup(signal: NodeJS.Signals): void {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    }

    function terminate(): void {
      if (escalation !== undefined) return;
      killGroup("SIGTERM");
      escalation = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
    }

    function onAbort(): void {
      aborted = true;
      terminate();
    }

    function settle(spawnError?: string): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(escalation);
      clearTimeout(pipeWait);
      options.signal.removeEventListener("abort", onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        // Colour and cursor codes are noise to the model.
        output: stripVTControlCharacters(collector.text()),
        exitCode: exitCode ?? -1,
        timedOut,
        aborted,
        ...(spawnError === undefined ? {} : { spawnError }),
      });
    }

    const timer = setTimeout(() => {
      timedOut = true;
      terminate();
    }, options.timeoutMs);
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });

    child.stdout.setEncoding("utf8").on("data", (chunk: string) => collector.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => collector.push(chunk));
    child.on("error", (error) => settle(error.message));
    child.on("exit", (code, signal) => {
      exitCode = code ?? 128 + signalNumber(signal);
      // Background jobs the command left behind would outlive it and hold our pipes open.
      killGroup("SIGKILL");
      pipeWait = setTimeout(() => settle(), PIPE_GRACE_MS);
    });
    child.on("close", () => settle());
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === null ? 0 : constants.signals[signal];
}
