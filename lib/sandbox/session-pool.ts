/**
 * The run's sandbox sessions, one per set of mounts: the agent's commands in a worktree share one,
 * Locus's git in that worktree (whose git directory it may write) has another, so a command never
 * runs with mounts other than its own. A session runs one command at a time; a command that comes
 * while its session is busy (an ACP agent's second terminal) gets a session of its own, kept for
 * later. A session whose init died is dropped and the next command starts a fresh one.
 */
import type { CommandOutcome, WrapOptions } from "./sandbox.ts";
import type { SandboxSession, SessionCommand } from "./sandbox-session.ts";

export interface SessionPool {
  run(wrap: WrapOptions, command: SessionCommand): Promise<CommandOutcome>;
  /** Ends every session; a command started after this fails. */
  close(): Promise<void>;
}

/** What decides a session's mounts (pure). */
export function mountKey(wrap: WrapOptions): string {
  return JSON.stringify([
    wrap.cwd,
    wrap.offline === true,
    [...(wrap.writable ?? [])].sort(),
    [...(wrap.readable ?? [])].sort(),
  ]);
}

export function createSessionPool(start: (wrap: WrapOptions) => Promise<SandboxSession>): SessionPool {
  const idle = new Map<string, SandboxSession[]>();
  const all = new Set<SandboxSession>();
  let closed = false;

  return {
    async run(wrap, command) {
      if (closed) throw new Error("The sandbox is closed");
      const key = mountKey(wrap);
      let session = idle.get(key)?.pop();
      if (session === undefined) {
        session = await start(wrap);
        all.add(session);
        if (closed) {
          await session.close();
          throw new Error("The sandbox is closed");
        }
      }
      try {
        return await session.run(command);
      } finally {
        if (session.alive && !closed) idle.set(key, [...(idle.get(key) ?? []), session]);
        else {
          all.delete(session);
          await session.close();
        }
      }
    },
    async close() {
      closed = true;
      idle.clear();
      await Promise.all([...all].map((session) => session.close()));
      all.clear();
    },
  };
}
