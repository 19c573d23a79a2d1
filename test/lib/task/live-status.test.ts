import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../lib/agent/events.ts";
import { createLiveStatus, type LiveStatusOptions } from "../../../lib/task/live-status.ts";
import type { Comment, GitHubGateway } from "../../../lib/github/index.ts";
import { readStatusState, type StatusState } from "../../../lib/status/status-comment.ts";
import { createStatusWriter } from "../../../lib/lifecycle/status-writer.ts";
import { NO_USAGE } from "../../../lib/agent/usage.ts";
import { createGitHubFake } from "../../fakes/github-fake.ts";
import { commentRecord } from "../../fakes/github-fake-store.ts";

const CWD = "/runner/worktrees/issue-7";

/**
 * The status comment on the typed fake GitHub: edits are held until the test settles them, so the
 * test decides when GitHub answers; every edit is recorded.
 */
function fakeGitHub() {
  const fake = createGitHubFake({ clock: { now: () => new Date("2026-11-24T10:00:00Z") } });
  const issue = fake.seedIssue({ title: "Task" }).number;
  const stored = fake.seedComment(
    issue,
    "<!-- locus:status -->\n**Locus:** Working — getting started.",
    "locus[bot]",
  );
  const held: { body: string; settle: (ok: boolean) => void }[] = [];
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const gateway: GitHubGateway = {
    ...fake,
    updateComment(id, body) {
      calls.push(`edit ${id === stored.id ? "status" : id}: ${headline(body)}`);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return new Promise<Comment>((resolve, reject) => {
        held.push({
          body,
          settle(ok) {
            inFlight -= 1;
            if (ok) resolve(fake.updateComment(id, body));
            else reject(new Error("GitHub answered 502 Bad Gateway"));
          },
        });
      });
    },
  };
  return {
    gateway,
    issue,
    calls,
    /** The status comment as GitHub has it now. */
    comment: stored,
    held,
    maxInFlight: () => maxInFlight,
    /** Lets GitHub answer the oldest held edit and the updater react to it. */
    async answer(ok = true) {
      await flush();
      const next = held.shift();
      if (!next) throw new Error("no edit is waiting for GitHub");
      next.settle(ok);
      await flush();
    },
  };
}

function headline(body: string): string {
  return /\*\*Locus:\*\* (.*)/.exec(body)?.[1] ?? "";
}

async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

function fakeClock() {
  let now = Date.parse("2026-11-24T10:00:00Z");
  return { clock: { now: () => new Date(now) }, advance: (ms: number) => (now += ms) };
}

const STATE: StatusState = { deliveries: [], attempts: 3 };

function setup(overrides: Partial<LiveStatusOptions> = {}) {
  const github = fakeGitHub();
  const time = fakeClock();
  const warnings: string[] = [];
  // The task's one status writer: the live updater and the task's own final status share it.
  const writeStatus = createStatusWriter(github.gateway, github.issue, {
    comment: commentRecord(github.comment),
    state: STATE,
  });
  const live = createLiveStatus({
    write: (view) => writeStatus(view, STATE),
    clock: time.clock,
    cwd: CWD,
    mask: (text) => text.replaceAll("sk-secret", "***"),
    warn: (message) => warnings.push(message),
    intervalMs: 30_000,
    ...overrides,
  });
  return { github, time, warnings, live, writeStatus };
}

const tool = (id: string, name: string, params: Record<string, unknown>): AgentEvent => ({
  type: "tool_started",
  id,
  tool: name,
  params,
});
const turn = (n: number): AgentEvent => ({ type: "turn", turn: n, usage: NO_USAGE, costUsd: 0 });
const completed = (id: string, name: string): AgentEvent => ({
  type: "tool_completed",
  id,
  tool: name,
  duration: 5,
  ok: true,
  summary: `${name} done`,
});

describe("live status updater", () => {
  it("shows the first tool at once, then at most one tool change per interval, with the turn", async () => {
    const { github, time, live } = setup();

    live.onEvent(turn(1));
    live.onEvent(tool("t1", "read_file", { path: "src/a.ts" }));
    await github.answer();
    time.advance(5_000);
    live.onEvent(completed("t1", "read_file"));
    live.onEvent(turn(2));
    live.onEvent(tool("t2", "edit_file", { path: "src/a.ts" }));
    time.advance(10_000);
    live.onEvent(completed("t2", "edit_file"));
    live.onEvent(turn(3));
    live.onEvent(tool("t3", "Bash", { command: "npm test" }));
    await flush();
    expect(github.held).toHaveLength(0);

    time.advance(15_000);
    live.onEvent(completed("t3", "Bash"));
    await github.answer();
    await live.close();

    expect(github.calls).toEqual([
      "edit status: Working — reading `src/a.ts` (turn 1)",
      "edit status: Working — running `npm test` (turn 3)",
    ]);
    expect(readStatusState(github.comment.body).attempts).toBe(3);
  });

  it("with the caller's own write just made, waits out the interval from it before the first tool", async () => {
    const time = fakeClock();
    const { github, live } = setup({ clock: time.clock, lastWriteAt: time.clock.now().getTime() });

    live.onEvent(turn(1));
    live.onEvent(tool("t1", "read_file", { path: "src/a.ts" }));
    time.advance(29_000);
    live.onEvent(completed("t1", "read_file"));
    await flush();
    expect(github.held).toHaveLength(0);

    time.advance(1_000);
    live.onEvent(turn(2));
    await github.answer();
    await live.close();

    expect(github.calls).toEqual(["edit status: Working — reading `src/a.ts` (turn 1)"]);
  });

  it("edits at once on a phase change, never twice with the same text", async () => {
    const { github, live } = setup();

    live.phase({ kind: "working" });
    live.onEvent(tool("t1", "Read", { file_path: `${CWD}/README.md` }));
    live.onEvent(tool("t2", "Read", { file_path: `${CWD}/README.md` }));
    await github.answer();
    await github.answer();
    live.phase({ kind: "working" });
    live.phase({ kind: "working" });
    await github.answer();
    await live.close();

    expect(github.calls.filter((call) => call.startsWith("edit"))).toEqual([
      "edit status: Working — getting started.",
      "edit status: Working — reading `README.md`",
      "edit status: Working — getting started.",
    ]);
  });

  it("never runs two edits at once and sends only the newest view waiting", async () => {
    const { github, time, live } = setup({ intervalMs: 0 });

    live.onEvent(tool("t1", "run_shell", { command: "npm ci" }));
    time.advance(1);
    live.onEvent(tool("t2", "run_shell", { command: "npm run build" }));
    live.onEvent(tool("t3", "run_shell", { command: "npm test" }));
    await flush();
    expect(github.held).toHaveLength(1);
    await github.answer();
    await github.answer();
    await live.close();

    expect(github.maxInFlight()).toBe(1);
    expect(github.calls.filter((call) => call.startsWith("edit"))).toEqual([
      "edit status: Working — running `npm ci`",
      "edit status: Working — running `npm test`",
    ]);
  });

  it("does not make the agent wait: events return while GitHub has not answered", async () => {
    const { github, live } = setup();

    const returned = live.onEvent(tool("t1", "run_shell", { command: "sleep 100" }));
    await flush();

    expect(returned).toBeUndefined();
    expect(github.held.map((edit) => headline(edit.body))).toEqual(["Working — running `sleep 100`"]);
  });

  it("closes after the edit in flight settles and drops the rest, so the final status is the last word", async () => {
    const { github, time, live, writeStatus } = setup({ intervalMs: 0 });
    live.onEvent(tool("t1", "run_shell", { command: "npm test" }));
    await flush();
    time.advance(1);
    live.onEvent(tool("t2", "edit_file", { path: "src/late.ts" }));

    let closed = false;
    const closing = live.close().then(() => (closed = true));
    await flush();
    expect(closed).toBe(false);
    await github.answer();
    await closing;
    live.onEvent(tool("t3", "run_shell", { command: "npm run lint" }));
    live.phase({ kind: "working" });
    const final = writeStatus({ headline: "Pull request #9 is ready for review." }, STATE);
    await github.answer();
    await final;

    expect(github.calls.filter((call) => call.startsWith("edit"))).toEqual([
      "edit status: Working — running `npm test`",
      "edit status: Pull request #9 is ready for review.",
    ]);
    expect(headline(github.comment.body)).toBe("Pull request #9 is ready for review.");
  });

  it("logs a write that throws at once, without throwing into the agent", async () => {
    const warnings: string[] = [];
    const live = createLiveStatus({
      write: () => {
        throw new Error("no status comment to edit");
      },
      clock: fakeClock().clock,
      cwd: CWD,
      mask: (text) => text,
      warn: (message) => warnings.push(message),
    });

    expect(() => live.onEvent(tool("t1", "run_shell", { command: "ls" }))).not.toThrow();
    await live.close();

    expect(warnings).toEqual(["Could not update the status comment: no status comment to edit"]);
  });

  it("logs a failing edit and carries on; close never rejects", async () => {
    const { github, time, warnings, live } = setup({ intervalMs: 0 });

    live.onEvent(tool("t1", "run_shell", { command: "curl -H 'x-api-key: sk-secret' localhost" }));
    await github.answer(false);
    time.advance(1);
    live.onEvent(tool("t2", "read_file", { path: "a.ts" }));
    const closing = live.close();
    await github.answer(false);
    await expect(closing).resolves.toBeUndefined();

    expect(warnings).toEqual([
      "Could not update the status comment: GitHub answered 502 Bad Gateway",
      "Could not update the status comment: GitHub answered 502 Bad Gateway",
    ]);
    expect(github.calls).toContain("edit status: Working — running `curl -H 'x-api-key: ***' localhost`");
  });
});
