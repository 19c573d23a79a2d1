/**
 * Replies that cost Locus a write but start no work — a refusal, a usage
 * error, `help`, `status` — are what someone could flood an issue with
 * (every reply goes through the installation's shared write queue). So at
 * most one refusal or usage reply goes to one person on one issue per hour,
 * and one `help` or `status` answer per thread per window; beyond that Locus
 * reacts to the comment at most. Kept per process, with an injected clock:
 * replicas may each answer once, which still bounds the flood.
 */
export interface ReplyLimits {
  /** Whether a reply under `key` may be posted now; taking it starts the key's window. */
  take(key: string, windowMs: number): boolean;
}

export const REFUSAL_WINDOW_MS = 60 * 60_000;
export const READ_ONLY_WINDOW_MS = 10 * 60_000;

export function createReplyLimits(now: () => number, capacity = 10_000): ReplyLimits {
  const until = new Map<string, number>();
  return {
    take(key, windowMs) {
      const at = now();
      const open = until.get(key);
      if (open !== undefined && open > at) return false;
      until.delete(key);
      until.set(key, at + windowMs);
      if (until.size > capacity) {
        const oldest = until.keys().next().value;
        if (oldest !== undefined) until.delete(oldest);
      }
      return true;
    },
  };
}

/** Whether the reply under `key` may go out (always, when the context sets no limits). */
export function mayReply(limits: ReplyLimits | undefined, key: string, windowMs: number): boolean {
  return limits === undefined || limits.take(key, windowMs);
}

/** The key of replies that refuse or correct one person on one issue. */
export function refusalKey(repo: string, issue: number, login: string): string {
  return `${repo}#${issue}:refusal:${login.toLowerCase()}`;
}

/** The key of `help` and `status` answers in one thread. */
export function readOnlyKey(repo: string, issue: number, command: string): string {
  return `${repo}#${issue}:${command}`;
}
