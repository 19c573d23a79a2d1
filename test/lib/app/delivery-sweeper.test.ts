import { describe, expect, it } from "vitest";
import {
  createDeliverySweeper,
  type DeliveryLog,
  type SweepLimits,
} from "../../../lib/app/delivery-sweeper.ts";
import type { HookDelivery } from "../../../lib/app/redelivery-selection.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const START = Date.parse("2026-11-24T12:00:00Z");

/** GitHub's delivery log in memory: pages newest first; a redelivery is logged as a new attempt. */
function fakeLog(options: { perPage?: number; listRedeliveries?: boolean } = {}) {
  const attempts: HookDelivery[] = [];
  const redelivered: number[] = [];
  const state = { pagesRead: 0, failing: false };
  let nextId = 1;
  function add(guid: string, at: number, statusCode: number, redelivery = false): HookDelivery {
    const entry = {
      id: nextId++,
      guid,
      deliveredAt: new Date(at).toISOString(),
      statusCode,
      event: "issue_comment",
      action: "created",
      redelivery,
    };
    attempts.push(entry);
    return entry;
  }
  const log: DeliveryLog = {
    async *pages() {
      if (state.failing) throw new Error("GitHub answered 502");
      const newestFirst = [...attempts].sort((a, b) => b.id - a.id);
      const size = options.perPage ?? 100;
      for (let index = 0; index < newestFirst.length; index += size) {
        state.pagesRead += 1;
        yield await Promise.resolve(newestFirst.slice(index, index + size));
      }
    },
    redeliver(deliveryId) {
      redelivered.push(deliveryId);
      const original = attempts.find((entry) => entry.id === deliveryId);
      if (original && options.listRedeliveries !== false) add(original.guid, clock.now, 200, true);
      return Promise.resolve();
    },
  };
  return { log, add, redelivered, state };
}

const clock = { now: START };
const warnings: string[] = [];
function sweeperOver(log: DeliveryLog, limits: Partial<SweepLimits> = {}) {
  clock.now = START;
  warnings.length = 0;
  return createDeliverySweeper({
    log,
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message) => warnings.push(message),
      error: () => undefined,
    },
    now: () => new Date(clock.now),
    actsOn: () => true,
    limits,
  });
}

describe("delivery sweeper", () => {
  it("redelivers what failed while the app was down, and a second sweep asks for nothing more", async () => {
    const github = fakeLog();
    const lost = Array.from({ length: 20 }, (_, n) => github.add(`g${n}`, START - 30 * MINUTE + n, 0));
    const sweeper = sweeperOver(github.log);
    const first = await sweeper.sweep();
    expect(first).toMatchObject({ outcome: "swept", truncated: false });
    expect(github.redelivered).toEqual(lost.map((entry) => entry.id));

    clock.now += 10 * MINUTE;
    expect(await sweeper.sweep()).toMatchObject({ outcome: "swept", redelivered: [] });
    expect(github.redelivered).toHaveLength(20);
  });

  it("does not ask twice while GitHub has not yet listed its redelivery", async () => {
    const github = fakeLog({ listRedeliveries: false });
    github.add("slow", START - MINUTE, 500);
    const sweeper = sweeperOver(github.log);
    await sweeper.sweep();
    clock.now += 10 * MINUTE;
    await sweeper.sweep();
    expect(github.redelivered).toHaveLength(1);
  });

  it("sweeps at most once per interval", async () => {
    const github = fakeLog();
    const sweeper = sweeperOver(github.log, { minIntervalMs: 5 * MINUTE });
    expect((await sweeper.sweep()).outcome).toBe("swept");
    clock.now += 5 * MINUTE - 1;
    github.add("meanwhile", clock.now, 0);
    expect(await sweeper.sweep()).toMatchObject({ outcome: "skipped" });
    expect(github.redelivered).toEqual([]);
    clock.now += 1;
    expect(await sweeper.sweep()).toMatchObject({ outcome: "swept", redelivered: [{ guid: "meanwhile" }] });
  });

  it("never looks back more than the 3 days GitHub keeps deliveries", async () => {
    const github = fakeLog();
    github.add("too-old", START - 3 * DAY - MINUTE, 0);
    const kept = github.add("kept", START - 3 * DAY + MINUTE, 0);
    await sweeperOver(github.log, { lookBackMs: 30 * DAY }).sweep();
    expect(github.redelivered).toEqual([kept.id]);
  });

  it("later sweeps read back only to the previous sweep", async () => {
    const github = fakeLog({ perPage: 10 });
    for (let n = 0; n < 100; n++) github.add(`old${n}`, START - 60 * MINUTE + n, 200);
    const sweeper = sweeperOver(github.log);
    await sweeper.sweep();
    expect(github.state.pagesRead).toBe(10);
    clock.now += 10 * MINUTE;
    github.add("new", clock.now - MINUTE, 200);
    github.state.pagesRead = 0;
    await sweeper.sweep();
    expect(github.state.pagesRead).toBe(1);
  });

  it("reads at most maxPages pages and says what it left unread", async () => {
    const github = fakeLog({ perPage: 10 });
    for (let n = 0; n < 50; n++) github.add(`g${n}`, START - 50 * MINUTE + n * MINUTE, 200);
    const report = await sweeperOver(github.log, { maxPages: 2 }).sweep();
    expect(report).toMatchObject({ outcome: "swept", read: 20, truncated: true });
    expect(github.state.pagesRead).toBe(2);
    expect(warnings.join("\n")).toMatch(/read 2 pages .* were not checked/);
  });

  it("redelivers at most maxRedeliveries a sweep and leaves the rest for the next", async () => {
    const github = fakeLog();
    for (let n = 0; n < 5; n++) github.add(`g${n}`, START - 30 * MINUTE + n, 0);
    const sweeper = sweeperOver(github.log, { maxRedeliveries: 3 });
    expect(await sweeper.sweep()).toMatchObject({ truncated: true });
    expect(github.redelivered).toHaveLength(3);
    clock.now += 10 * MINUTE;
    await sweeper.sweep();
    expect(github.redelivered).toHaveLength(5);
  });

  it("resends acknowledged events from just before the start only on the first complete sweep", async () => {
    const github = fakeLog({ listRedeliveries: false });
    const eaten = github.add("eaten", START - 2 * MINUTE, 200);
    github.add("long-done", START - 20 * MINUTE, 200);
    const sweeper = sweeperOver(github.log, { startupWindowMs: 10 * MINUTE });
    await sweeper.sweep();
    expect(github.redelivered).toEqual([eaten.id]);
    github.add("after-start", START + MINUTE, 200);
    clock.now += 10 * MINUTE;
    await sweeper.sweep();
    expect(github.redelivered).toEqual([eaten.id]);
  });

  it("knows the GUIDs it asked GitHub to send again, before GitHub answers and even when asking failed", async () => {
    const github = fakeLog();
    const lost = github.add("lost", START - 3 * MINUTE, 0);
    const refused = github.add("refused", START - MINUTE, 0);
    const askedWhileAsking: boolean[] = [];
    const sweeper = sweeperOver({
      pages: () => github.log.pages(),
      async redeliver(deliveryId) {
        const guid = deliveryId === lost.id ? lost.guid : refused.guid;
        askedWhileAsking.push(sweeper.redeliveryRequested(guid));
        if (deliveryId === refused.id) throw new Error("GitHub answered 502");
        await github.log.redeliver(deliveryId);
      },
    });
    expect(sweeper.redeliveryRequested("lost")).toBe(false);
    expect(await sweeper.sweep()).toMatchObject({ outcome: "failed" });
    expect(askedWhileAsking).toEqual([true, true]);
    expect(["lost", "refused", "never-asked"].map((guid) => sweeper.redeliveryRequested(guid))).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("logs a failed sweep instead of throwing, and the next sweep covers its span", async () => {
    const github = fakeLog();
    const lost = github.add("lost", START - MINUTE, 0);
    github.state.failing = true;
    const sweeper = sweeperOver(github.log);
    expect(await sweeper.sweep()).toEqual({ outcome: "failed", message: "GitHub answered 502" });
    expect(warnings.join("\n")).toMatch(/delivery sweep failed .*502/);
    github.state.failing = false;
    clock.now += 10 * MINUTE;
    await sweeper.sweep();
    expect(github.redelivered).toEqual([lost.id]);
  });
});
