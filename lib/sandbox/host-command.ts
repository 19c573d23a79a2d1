/**
 * One command spawned from Locus's own process (`Sandbox.exec` where no session applies: without a
 * sandbox, and for a credential-holding program's fresh bubblewrap). It gets its own process group,
 * so a timeout or an abort ends everything it started, and the group is killed once it exits, so
 * no background job outlives it. Output is kept as `CommandRequest` says (output-cap.ts).
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { createOutputCap } from "./output-cap.ts";
import type { CommandOutcome, CommandRequest } from "./sandbox.ts";

const KILL_GRACE_MS = 2_000;
/** Time to wait for the pipes after the program exits, in case a process left the group and holds them. */
const PIPE_GRACE_MS = 1_000;

export interface HostCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

export function runHostCommand(command: HostCommand, request: CommandRequest): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const cap = createOutputCap(request.headBytes, request.tailBytes, request.onOutput);
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
      escalation = setTimeout(() => killGroup("SIGKILL"), request.killGraceMs ?? KILL_GRACE_MS);
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
      request.signal?.removeEventListener("abort", onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        exitCode: exitCode ?? -1,
        timedOut,
        aborted,
        droppedBytes: cap.end(),
        ...(spawnError === undefined ? {} : { spawnError }),
      });
    }

    const timer = setTimeout(() => {
      timedOut = true;
      terminate();
    }, request.timeoutMs);
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => cap.push(1, chunk));
    child.stderr.on("data", (chunk: Buffer) => cap.push(2, chunk));
    child.on("error", (error) => settle(error.message));
    child.on("exit", (code, signal) => {
      exitCode = code ?? 128 + (signal === null ? 0 : constants.signals[signal]);
      // Background jobs the command left behind would outlive it and hold our pipes open.
      killGroup("SIGKILL");
      pipeWait = setTimeout(() => settle(), PIPE_GRACE_MS);
    });
    child.on("close", () => settle());
  });
}
