/**
 * The run's sandbox sessions, one per set of mounts: the agent's commands in a worktree share one,
 * Locus's git in that worktree (whose git directory it may write) has another, so a command never
 * runs with mounts other than its own. A session runs one command at a time; a command that comes
 * while its session is busy (an ACP agent's second terminal) gets a session of its own, kept for
 * later. A session whose init died is dropped and the next command starts a fresh one.
 */
import { statSync } from "node:fs";
import type { CommandOutcome, WrapOptions } from "./sandbox.ts";
import { gitMounts } from "./sandbox-mounts.ts";
import type { SandboxSession, SessionCommand } from "./sandbox-session.ts";

export interface SessionPool {
  run(wrap: WrapOptions, command: SessionCommand): Promise<CommandOutcome>;
  /** Starts a session for these mounts in the background unless one is idle or starting. */
  prepare(wrap: WrapOptions): void;
  /** Ends every session; a command started after this fails. */
  close(): Promise<void>;
}

/**
 * What decides a session's mounts, with the identity (device and inode) of each path: a bind
 * mount holds the directory it was made from, so a worktree removed and added again at the same
 * path needs a new session, never one still showing the old, deleted directory.
 */
function mountKey(wrap: WrapOptions): { shape: string; key: string } {
  const paths = [
    wrap.cwd,
    ...gitMounts(wrap.cwd).readOnlyGit,
    ...[...(wrap.writable ?? [])].sort(),
    "",
    ...[...(wrap.readable ?? [])].sort(),
  ];
  return {
    shape: JSON.stringify([wrap.offline === true, ...paths]),
    key: JSON.stringify([wrap.offline === true, ...paths.map((path) => `${path}@${identity(path)}`)]),
  };
}

function identity(path: string): string {
  if (path === "") return "";
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return "missing";
  }
}

/**
 * How long a session may wait for its next command before it is ended: each holds a node process
 * (tens of MB), and a sprint's earlier worktrees need theirs no more. A model's turn is seconds.
 */
const IDLE_MS = 120_000;

export function createSessionPool(start: (wrap: WrapOptions) => Promise<SandboxSession>): SessionPool {
  const idle = new Map<string, SandboxSession[]>();
  const idleTimers = new Map<SandboxSession, NodeJS.Timeout>();
  const all = new Set<SandboxSession>();
  let closed = false;
  const shapeOf = new Map<string, string>();
  const starting = new Map<string, Promise<void>>();

  /** Idle sessions with these mounts whose directories are no longer the ones on disk. */
  async function retireStale(shape: string, key: string): Promise<void> {
    const stale: SandboxSession[] = [];
    for (const [other, sessions] of idle) {
      if (other === key || shapeOf.get(other) !== shape) continue;
      stale.push(...sessions);
      idle.delete(other);
    }
    for (const session of stale) {
      all.delete(session);
      clearTimeout(idleTimers.get(session));
      idleTimers.delete(session);
    }
    await Promise.all(stale.map((session) => session.close()));
  }

  function park(key: string, session: SandboxSession): void {
    idle.set(key, [...(idle.get(key) ?? []), session]);
    const timer = setTimeout(() => {
      idle.set(
        key,
        (idle.get(key) ?? []).filter((other) => other !== session),
      );
      all.delete(session);
      idleTimers.delete(session);
      void session.close();
    }, IDLE_MS);
    // A parked session never keeps Locus's process alive.
    timer.unref();
    idleTimers.set(session, timer);
  }

  return {
    prepare(wrap) {
      if (closed) return;
      const { shape, key } = mountKey(wrap);
      shapeOf.set(key, shape);
      if ((idle.get(key)?.length ?? 0) > 0 || starting.has(key)) return;
      const started = start(wrap)
        .then(async (session) => {
          all.add(session);
          if (closed) await session.close();
          else park(key, session);
        })
        // A session that fails to start here fails again, and is reported, at the first command.
        .catch(() => undefined)
        .finally(() => starting.delete(key));
      starting.set(key, started);
    },
    async run(wrap, command) {
      if (closed) throw new Error("The sandbox is closed");
      const { shape, key } = mountKey(wrap);
      shapeOf.set(key, shape);
      await starting.get(key);
      let session = idle.get(key)?.pop();
      if (session !== undefined) clearTimeout(idleTimers.get(session));
      if (session === undefined) {
        await retireStale(shape, key);
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
        if (session.alive && !closed) park(key, session);
        else {
          all.delete(session);
          await session.close();
        }
      }
    },
    async close() {
      closed = true;
      idle.clear();
      for (const timer of idleTimers.values()) clearTimeout(timer);
      idleTimers.clear();
      await Promise.all([...all].map((session) => session.close()));
      all.clear();
    },
  };
}
