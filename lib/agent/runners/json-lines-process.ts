/**
 * Runs a CLI that reports on stdout one JSON value per line. The process gets its own process
 * group so an abort stops it and everything it started (its shell commands): SIGTERM to the
 * group, SIGKILL after a grace period. Its stdin is either one prompt, or (an ACP agent, which
 * speaks JSON-RPC both ways) a stream the caller keeps writing to.
 */
import { spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { createInterface } from "node:readline";

export interface JsonLinesOutcome {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The end of stderr, for an error message. */
  readonly stderr: string;
}

export interface JsonLinesOptions {
  readonly executable: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** The prompt, written and closed at once; or a function handed the open stdin to write to. */
  readonly stdin: string | ((stdin: Writable) => void);
  readonly signal: AbortSignal;
  readonly onValue: (value: unknown) => void;
  /** A stdout line that is not JSON; skipped when absent. */
  readonly onInvalid?: (line: string) => void;
  readonly killGraceMs?: number;
}

const STDERR_TAIL = 4000;

export function runJsonLines(options: JsonLinesOptions): Promise<JsonLinesOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.executable, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    let killTimer: NodeJS.Timeout | undefined;

    function killGroup(signal: NodeJS.Signals): void {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    }
    function onAbort(): void {
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), options.killGraceMs ?? 3000).unref();
    }
    options.signal.addEventListener("abort", onAbort, { once: true });
    if (options.signal.aborted) onAbort();

    // A CLI that exits before reading its prompt closes stdin under us; its exit status tells why.
    child.stdin.on("error", () => undefined);
    if (typeof options.stdin === "string") child.stdin.end(options.stdin);
    else options.stdin(child.stdin);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        options.onInvalid?.(line);
        return;
      }
      options.onValue(value);
    });
    child.on("error", (error) => {
      options.signal.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(killTimer);
      // What it started and left running (a background command, a helper process) ends with it.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // Nothing of the group was left.
        }
      }
      options.signal.removeEventListener("abort", onAbort);
      resolve({ exitCode, signal, stderr: stderr.trim() });
    });
  });
}
