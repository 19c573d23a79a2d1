import { describe, expect, it } from "vitest";
import { commandTrigger } from "../../../lib/trust/command-trigger.ts";
import type { TriggerAct } from "../../../lib/trust/trigger-act.ts";
import type { Writers } from "../../../lib/trust/writers.ts";
import { defaultConfig } from "../../../lib/config/index.ts";

const config = defaultConfig();
const identity = { login: "acme-locus[bot]", id: 4242 };
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

function ctx(actor: string) {
  return {
    config,
    identity,
    log: { ...quiet, group: <T>(_: string, fn: () => Promise<T>) => fn() },
    run: { id: "1", worktreeRoot: "/tmp", actor, repositoryUrl: "https://github.example/acme/widgets" },
  };
}

const writers: Writers = {
  trustFor: () => Promise.resolve({ isWriter: (login) => login === "alice", includeOutsiders: false }),
  checkedByApp: () => undefined,
};

const runCreatedAt = new Date("2026-11-24T10:00:00Z");
const act = (actor: string, at: string): TriggerAct => ({ actor, at, what: "commented /locus iterate" });

describe("commandTrigger", () => {
  it("takes the newest writer's act no later than the run's creation", async () => {
    const acts = [
      act("alice", "2026-11-24T09:50:00Z"),
      act("mallory", "2026-11-24T09:55:00Z"),
      act(identity.login, "2026-11-24T09:56:00Z"),
      act("alice", "2026-11-24T10:05:00Z"),
    ];
    const at = await commandTrigger(ctx(identity.login), acts, {
      runCreatedAt,
      writers,
      target: "PR #1",
    });
    expect(at.toISOString()).toBe("2026-11-24T09:50:00.000Z");
  });

  it("without a writer's act, the fallback, else the run's creation", async () => {
    const none = [act("mallory", "2026-11-24T09:55:00Z")];
    const fallback = { at: new Date("2026-11-24T09:40:00Z"), what: "the CI failure" };
    const bot = ctx(identity.login);
    expect(await commandTrigger(bot, none, { runCreatedAt, writers, target: "PR #1", fallback })).toEqual(
      fallback.at,
    );
    expect(await commandTrigger(bot, none, { runCreatedAt, writers, target: "PR #1" })).toEqual(runCreatedAt);
  });

  it("a run a person dispatched by hand counts from its creation", async () => {
    const acts = [act("alice", "2026-11-24T09:50:00Z")];
    expect(await commandTrigger(ctx("alice"), acts, { runCreatedAt, writers, target: "PR #1" })).toEqual(
      runCreatedAt,
    );
  });
});
