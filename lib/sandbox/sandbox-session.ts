/**
 * A sandbox session: one bubblewrap sandbox started once, with the init of session-init.ts inside,
 * that runs many commands one after another, each as if it had the sandbox to itself (its own
 * process group, timeout, output budget and environment; nothing it started survives it). Starting
 * bubblewrap and the relay costs tens of milliseconds, which every `run_shell` and every worktree git
 * command paid before; a request to a running init costs about one `spawn`.
 *
 * The init is a process like any other inside, so a command can kill or stop it: the session then
 * fails the command it was running with an error (never waits forever: an answer overdue by
 * `ANSWER_GRACE_MS` past the command's own timeout ends the sandbox) and is not used again.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { CommandOutcome, CommandRequest } from "./sandbox.ts";

/** What a session runs beyond `CommandRequest`: where, and with which environment. */
export interface SessionCommand extends CommandRequest {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

export interface SandboxSession {
  /** False once the init has ended or failed: the session takes no more commands. */
  readonly alive: boolean;
  run(command: SessionCommand): Promise<CommandOutcome>;
  /** Ends the init (which ends every process inside) and waits for bubblewrap to exit. */
  close(): Promise<void>;
}

const KILL_GRACE_MS = 2_000;
/** How long past a command's timeout and grace the init may take to answer before it counts as stuck. */
const ANSWER_GRACE_MS = 5_000;
/** How long `close` waits for bubblewrap to exit after stdin ends, before killing it. */
const CLOSE_GRACE_MS = 2_000;

interface Answer {
  readonly ready?: true;
  readonly id?: number;
  readonly out?: 1 | 2;
  readonly data?: string;
  readonly exit?: number;
  readonly timedOut?: boolean;
  readonly aborted?: boolean;
  readonly dropped?: number;
  readonly error?: string;
}

interface Pending {
  readonly command: SessionCommand;
  resolve(outcome: CommandOutcome): void;
  reject(error: Error): void;
}

/** Starts `file args…` (bubblewrap running the init) and resolves once the init says it is ready. */
export function startSandboxSession(file: string, args: readonly string[]): Promise<SandboxSession> {
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(file, [...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { PATH: "/usr/bin:/bin" },
  });
  let alive = true;
  let nextId = 1;
  let stderr = "";
  let buffered = "";
  const pending = new Map<number, Pending>();
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  let ready: { resolve(): void; reject(error: Error): void } | undefined;

  function fail(error: Error): void {
    if (!alive) return;
    alive = false;
    child.kill("SIGKILL");
    ready?.reject(error);
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  }

  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr = (stderr + text).slice(-2_000);
  });
  child.stdin.on("error", () => undefined);
  child.on("error", (error) => fail(new Error(`The sandbox could not start: ${error.message}`)));
  child.on("exit", (code, signal) => {
    const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
    const said = stderr.trim() === "" ? "" : `: ${stderr.trim()}`;
    fail(new Error(`The sandbox session ended unexpectedly (${how})${said}`));
  });
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    buffered += text;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      let answer: Answer;
      try {
        answer = JSON.parse(line) as Answer;
      } catch {
        fail(
          new Error(
            `The sandbox session's init wrote something that is not its protocol: ${line.slice(0, 200)}`,
          ),
        );
        return;
      }
      handle(answer);
    }
  });

  function handle(answer: Answer): void {
    if (answer.ready) {
      ready?.resolve();
      ready = undefined;
      return;
    }
    const waiting = answer.id === undefined ? undefined : pending.get(answer.id);
    if (waiting === undefined) return;
    if (answer.out !== undefined) {
      waiting.command.onOutput(answer.out, Buffer.from(answer.data ?? "", "base64"));
      return;
    }
    pending.delete(answer.id!);
    waiting.resolve({
      exitCode: answer.exit ?? -1,
      timedOut: answer.timedOut ?? false,
      aborted: answer.aborted ?? false,
      droppedBytes: answer.dropped ?? 0,
      ...(answer.error === undefined ? {} : { spawnError: answer.error }),
    });
  }

  const session: SandboxSession = {
    get alive() {
      return alive;
    },
    run(command) {
      if (!alive) return Promise.reject(new Error("The sandbox session has ended"));
      const id = nextId++;
      const grace = command.killGraceMs ?? KILL_GRACE_MS;
      return new Promise<CommandOutcome>((resolve, reject) => {
        const overdue = setTimeout(
          () =>
            fail(new Error(`The sandbox session's init stopped answering (a command ran past its timeout)`)),
          command.timeoutMs + grace + ANSWER_GRACE_MS,
        );
        const abort = () => child.stdin.write(`${JSON.stringify({ kill: id })}\n`);
        const settle = () => {
          clearTimeout(overdue);
          command.signal?.removeEventListener("abort", abort);
        };
        pending.set(id, {
          command,
          resolve: (outcome) => (settle(), resolve(outcome)),
          reject: (error) => (settle(), reject(error)),
        });
        child.stdin.write(
          `${JSON.stringify({
            id,
            file: command.file,
            args: command.args,
            cwd: command.cwd,
            env: command.env,
            timeoutMs: command.timeoutMs,
            killGraceMs: grace,
            headBytes: command.headBytes,
            tailBytes: command.tailBytes,
          })}\n`,
        );
        if (command.signal?.aborted) abort();
        else command.signal?.addEventListener("abort", abort, { once: true });
      });
    },
    async close() {
      if (alive) {
        alive = false;
        child.stdin.end();
        const timer = setTimeout(() => child.kill("SIGKILL"), CLOSE_GRACE_MS);
        await exited;
        clearTimeout(timer);
      } else {
        await exited;
      }
      for (const waiting of pending.values()) waiting.reject(new Error("The sandbox session was closed"));
      pending.clear();
    },
  };

  return new Promise<SandboxSession>((resolve, reject) => {
    ready = { resolve: () => resolve(session), reject };
  });
}
