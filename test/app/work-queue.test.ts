import { describe, expect, it } from "vitest";
import { createWorkQueue } from "../../app/work-queue.ts";

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Lets every microtask queued so far (and those they queue) run, but no timer or I/O callback. */
async function flushMicrotasks(): Promise<void> {
  for (let round = 0; round < 100; round++) await Promise.resolve();
}

describe("the work queue", () => {
  it("starts work on a later turn of the event loop, after the handler's own microtasks (where the acknowledgement is written)", async () => {
    const queue = createWorkQueue(quiet);
    const started: string[] = [];
    const start = (name: string) => () => {
      started.push(name);
      return Promise.resolve();
    };
    queue.enqueue("a", start("a"));
    queue.enqueue("b", start("b"));
    await flushMicrotasks();
    expect(started).toEqual([]);
    expect(queue.size).toBe(2);
    await queue.drain();
    expect(started).toEqual(["a", "b"]);
    expect(queue.size).toBe(0);
  });

  it("logs a failure and keeps working", async () => {
    const errors: string[] = [];
    const queue = createWorkQueue({ ...quiet, error: (message: string) => errors.push(message) });
    let after = false;
    queue.enqueue("broken", () => Promise.reject(new Error("GitHub said no")));
    queue.enqueue("next", () => {
      after = true;
      return Promise.resolve();
    });
    await queue.drain();
    expect(errors).toEqual(["broken failed: GitHub said no"]);
    expect(after).toBe(true);
  });
});
