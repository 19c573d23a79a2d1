/**
 * Work under the same key runs one piece at a time, in arrival order; work
 * under different keys (or no key) runs concurrently. A failure does not
 * stop the work queued behind it.
 */
export interface KeyedLanes {
  run(key: string | undefined, work: () => Promise<void>): Promise<void>;
  /** Keys with work queued or running. */
  readonly size: number;
}

export function createKeyedLanes(): KeyedLanes {
  const tails = new Map<string, Promise<void>>();
  return {
    run(key, work) {
      if (key === undefined) return work();
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(work);
      const tail = result.catch(() => undefined);
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    get size() {
      return tails.size;
    },
  };
}
