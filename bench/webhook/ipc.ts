/** Request/answer over a forked child's IPC channel: the load generator stays alone in the parent. */
import { fork, type ChildProcess } from "node:child_process";

export interface Peer {
  readonly child: ChildProcess;
  ask<T>(command: string, argument?: unknown): Promise<T>;
  stop(): Promise<void>;
}

interface Answer {
  readonly id: number;
  readonly value?: unknown;
  readonly error?: string;
}

/** Forks `entry` with `args` (and Node flags `execArgv`) and waits for its first message (its "ready" answer). */
export async function forkPeer<T>(
  entry: string,
  args: string[],
  execArgv: string[] = [],
): Promise<{ peer: Peer; ready: T }> {
  const child = fork(entry, args, {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: [...process.execArgv, ...execArgv],
  });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 0;
  const ready = await new Promise<T>((resolve, reject) => {
    child.once("message", (message) => resolve(message as T));
    child.once("exit", (code) => reject(new Error(`${entry} exited ${code} before it was ready`)));
  });
  child.on("message", (message) => {
    const answer = message as Answer;
    const pending = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.error !== undefined) pending?.reject(new Error(answer.error));
    else pending?.resolve(answer.value);
  });
  const peer: Peer = {
    child,
    ask: <V>(command: string, argument?: unknown) =>
      new Promise<V>((resolve, reject) => {
        next += 1;
        waiting.set(next, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id: next, command, argument });
      }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
  return { peer, ready };
}

/** The child's side: answers commands with `handlers`, after sending `ready`. */
export function servePeer(ready: unknown, handlers: Record<string, (argument: unknown) => unknown>): void {
  process.on("message", (message: { id: number; command: string; argument?: unknown }) => {
    const handler = handlers[message.command];
    void Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown command ${message.command}`);
        return handler(message.argument);
      })
      .then(
        (value: unknown) => process.send?.({ id: message.id, value }),
        (error: unknown) => process.send?.({ id: message.id, error: String(error) }),
      );
  });
  process.send?.(ready);
}
