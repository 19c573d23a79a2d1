/** Exchanges at the same moment share a GitHub read still in flight, and nothing else. */
import { describe, expect, it } from "vitest";
import type { ExchangeGitHub } from "../../../lib/token-exchange/exchange.ts";
import { withSharedReads } from "../../../lib/token-exchange/shared-reads.ts";

/** A GitHub whose reads wait until `answer()`, counting each call by method. */
function heldGitHub() {
  const calls: string[] = [];
  let release: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (release = resolve));
  let failNext = false;
  const read = async <T>(name: string, value: T): Promise<T> => {
    calls.push(name);
    const failing = failNext;
    failNext = false;
    await gate;
    if (failing) throw new Error(`${name} failed`);
    return value;
  };
  const github: ExchangeGitHub = {
    installationOf: (owner) => read("installationOf", owner === "acme" ? 7 : null),
    bot: () => read("bot", { login: "locus[bot]", id: 1 }),
    repository: (_installation, _owner, repo) =>
      read("repository", { id: repo === "app" ? "42" : "43", defaultBranch: "main", workflow: "locus.yml" }),
    run: (_installation, _owner, _repo, runId) =>
      read("run", {
        id: runId,
        path: ".github/workflows/locus.yml",
        status: "in_progress",
        displayTitle: "Locus #1",
        actor: "locus[bot]",
        triggeringActor: "locus[bot]",
      }),
    deliveryRecord: () => read("deliveryRecord", { author: null, deliveries: [] }),
    mint: (_installation, repositoryId) =>
      read("mint", { token: `ghs_${calls.length}`, expiresAt: "2030-01-01T00:00:00Z", permissions: {} }).then(
        (minted) => ({ ...minted, permissions: { repository: String(repositoryId) } }),
      ),
  };
  return {
    github,
    calls,
    answer: () => {
      release();
      gate = new Promise<void>((resolve) => (release = resolve));
    },
    failNextRead: () => (failNext = true),
  };
}

function count(calls: readonly string[], name: string): number {
  return calls.filter((call) => call === name).length;
}

describe("withSharedReads", () => {
  it("gives every exchange waiting on the same installation, repository and run one read's answer", async () => {
    const held = heldGitHub();
    const shared = withSharedReads(held.github);
    const answers = Promise.all([
      Promise.all([1, 2, 3].map(() => shared.installationOf("acme", "app"))),
      Promise.all([1, 2, 3].map(() => shared.repository(7, "acme", "app"))),
      Promise.all([1, 2].map(() => shared.run(7, "acme", "app", 99))),
    ]);
    held.answer();
    const [installations, repositories, runs] = await answers;

    expect(installations).toEqual([7, 7, 7]);
    expect(repositories.map((facts) => facts.id)).toEqual(["42", "42", "42"]);
    expect(runs.map((run) => run?.id)).toEqual([99, 99]);
    expect(held.calls).toEqual(["installationOf", "repository", "run"]);
  });

  it("keeps different repositories and runs apart", async () => {
    const held = heldGitHub();
    const shared = withSharedReads(held.github);
    const answers = Promise.all([
      shared.installationOf("acme", "app"),
      shared.installationOf("other", "app"),
      shared.repository(7, "acme", "app"),
      shared.repository(7, "acme", "lib"),
      shared.run(7, "acme", "app", 1),
      shared.run(7, "acme", "app", 2),
    ]);
    held.answer();
    const [acme, other, app, lib, first, second] = await answers;

    expect([acme, other]).toEqual([7, null]);
    expect([app.id, lib.id]).toEqual(["42", "43"]);
    expect([first?.id, second?.id]).toEqual([1, 2]);
    expect(count(held.calls, "installationOf")).toBe(2);
    expect(count(held.calls, "repository")).toBe(2);
    expect(count(held.calls, "run")).toBe(2);
  });

  it("keeps no answer once its read has settled, so a later exchange reads again", async () => {
    const held = heldGitHub();
    const shared = withSharedReads(held.github);
    const first = shared.repository(7, "acme", "app");
    held.answer();
    await first;
    const second = shared.repository(7, "acme", "app");
    held.answer();
    await second;

    expect(count(held.calls, "repository")).toBe(2);
  });

  it("shares a failed read's error with those waiting on it, then reads afresh", async () => {
    const held = heldGitHub();
    const shared = withSharedReads(held.github);
    held.failNextRead();
    const waiting = Promise.allSettled([
      shared.installationOf("acme", "app"),
      shared.installationOf("acme", "app"),
    ]);
    held.answer();
    const outcomes = await waiting;
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);

    const again = shared.installationOf("acme", "app");
    held.answer();
    expect(await again).toBe(7);
    expect(count(held.calls, "installationOf")).toBe(2);
  });

  it("never shares a mint, the bot look-up or the delivery record: each exchange makes its own", async () => {
    const held = heldGitHub();
    const shared = withSharedReads(held.github);
    const answers = Promise.all([
      shared.mint(7, 42, { contents: "write" }),
      shared.mint(7, 42, { contents: "write" }),
      shared.bot(7),
      shared.bot(7),
      shared.deliveryRecord(7, "acme", "app", 1),
      shared.deliveryRecord(7, "acme", "app", 1),
    ]);
    held.answer();
    const [first, second] = await answers;

    expect(first.token).not.toBe(second.token);
    expect(count(held.calls, "mint")).toBe(2);
    expect(count(held.calls, "bot")).toBe(2);
    expect(count(held.calls, "deliveryRecord")).toBe(2);
  });
});
