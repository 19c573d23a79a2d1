/**
 * Mode `sprint` (lib/action/modes/sprint.ts) run in process in a task world
 * (test/fakes/task-world.ts): real git against a bare remote, the real agent
 * runner and sandbox, the typed GitHub fake and the Anthropic fake. The
 * bundled Action's own run of the mode (a three-task stack end to end) is
 * test/action/sprint-mode.test.ts.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSprintMode } from "../../../../lib/action/modes/sprint.ts";
import { overallStatus } from "../../../../lib/task/task-report.ts";
import { call, reply } from "../../../../sandbox/anthropic-fake/script.ts";
import type { FakeTurn, RecordedRequest } from "../../../../sandbox/anthropic-fake/types.ts";
import { moveToMilestone } from "../../../fakes/fake-issues.ts";
import { startTaskWorld, type TaskWorld } from "../../../fakes/task-world.ts";

let w: TaskWorld;

beforeAll(async () => {
  w = await startTaskWorld();
}, 60_000);

afterAll(async () => {
  await w.close();
}, 60_000);

async function sprint(title: string, tasks: Array<{ title: string; order?: number }>) {
  const milestone = await w.github.createMilestone({ title });
  const issues = [];
  for (const task of tasks) {
    const labels = ["locus:queued", ...(task.order === undefined ? [] : [`order:${task.order}`])];
    issues.push(await w.github.createIssue({ title: task.title, labels, milestone: milestone.number }));
  }
  return { milestone, issues };
}

async function runSprint(milestone: number) {
  return runSprintMode(await w.context(), milestone);
}

/** The task being worked on, from the request's first user message. */
function taskOf(request: RecordedRequest): string {
  const text = JSON.stringify(request.body);
  return /## Task: #\d+ ([\w ]+)/.exec(text)?.[1] ?? "";
}

/** Each task writes `src/<slug>.js` then finishes; tasks named in `failing` hit an API error after writing. */
function scriptFor(count: number, failing: readonly string[] = []): FakeTurn[] {
  const turn = (request: RecordedRequest) => {
    const task = taskOf(request);
    const slug = task.toLowerCase().replace(/\W+/g, "-");
    if (!JSON.stringify(request.body).includes("tool_result"))
      return reply(call("write_file", { path: `src/${slug}.js`, content: `// ${task}\n` }));
    if (failing.includes(task)) return { status: 400 };
    return reply(call("finish", { summary: `Did ${task}.` }));
  };
  return Array.from({ length: count * 2 }, () => turn);
}

/** The open issue with this title that Locus opened (the sprint's tracking issue). */
function tracking(title: string) {
  return [...w.github.store.issues.values()].find(
    (issue) => issue.title === title && issue.state === "open" && issue.author === w.github.store.self,
  );
}

const baseOf = async (branch: string) => (await w.github.findPullRequestByHead(branch))?.base.ref;

/** A scenario's limit, as the scenario projects have (vitest.config.ts): it guards against a hang, and a run of real git and sandbox on two busy cores can take tens of seconds. */
const SCENARIO = { timeout: 60_000 };

describe("mode sprint, in process", SCENARIO, () => {
  it("stops at the first failure and resumes there on the next run", async () => {
    const { milestone, issues } = await sprint("Sprint Two", [
      { title: "Task one", order: 1 },
      { title: "Task two", order: 2 },
      { title: "Task three", order: 3 },
    ]);
    const [one, two, three] = issues.map((issue) => issue.number) as [number, number, number];
    w.anthropic.setScript(scriptFor(2, ["Task two"]));

    const first = await runSprint(milestone.number);

    expect(first.tasks.some((task) => task.fault)).toBe(false);
    expect(overallStatus(first)).toBe("failed");
    expect(w.github.labelsOf(one)).toContain("locus:in-review");
    expect(w.github.labelsOf(two)).toContain("locus:failed");
    expect(w.github.labelsOf(three)).toContain("locus:queued");
    expect(await w.show(`locus/wip/issue-${two}`, "src/task-two.js")).toContain("Task two");
    expect(tracking("Sprint: Sprint Two")?.body).toContain(`#${two} failed`);

    w.anthropic.setScript([
      reply(call("finish", { summary: "Finished task two from its checkpoint." })),
      ...scriptFor(1),
    ]);
    const second = await runSprint(milestone.number);

    expect(overallStatus(second)).toBe("succeeded");
    expect(w.summary("sprint", second)).not.toContain(`#${one} Task one`);
    expect(await baseOf(`locus/issue-${two}`)).toBe(`locus/issue-${one}`);
    expect(await baseOf(`locus/issue-${three}`)).toBe(`locus/issue-${two}`);
    expect(await w.show(`locus/issue-${two}`, "src/task-two.js")).toContain("Task two");
    for (const n of [one, two, three]) expect(w.github.labelsOf(n)).toContain("locus:in-review");
  });

  it("keeps its dashboard on a tracking issue Locus opened, never on a look-alike a triage user made", async () => {
    w.github.store.permissions.set("tracy", "triage");
    const lookAlike = w.github.seedIssue({
      title: "Sprint: Sprint Forged",
      body: "mine",
      author: "tracy",
      labels: ["agent:managed"],
    });
    const { milestone } = await sprint("Sprint Forged", [{ title: "Task solo", order: 1 }]);
    w.anthropic.setScript(scriptFor(1));

    const result = await runSprint(milestone.number);

    expect(overallStatus(result)).toBe("succeeded");
    expect(lookAlike.body).toBe("mine");
    const dashboards = [...w.github.store.issues.values()].filter(
      (i) => i.title === "Sprint: Sprint Forged" && i.state === "open" && i.number !== lookAlike.number,
    );
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]?.body).toContain("```mermaid");
  });

  it("stops before any work when an issue has no order label, naming it", async () => {
    const { milestone, issues } = await sprint("Sprint Three", [
      { title: "Ordered", order: 1 },
      { title: "Loose" },
    ]);
    const before = w.anthropic.requests.length;

    const result = await runSprint(milestone.number);

    expect(result.tasks.some((task) => task.fault)).toBe(false);
    expect(overallStatus(result)).toBe("skipped");
    expect(w.summary("sprint", result)).toContain(`Issues without an order label: #${issues[1]?.number}`);
    expect(w.anthropic.requests.length).toBe(before);
  });

  it("stops with the conflicting files when rebasing a retried task onto a moved base conflicts", async () => {
    const { milestone, issues } = await sprint("Sprint Four", [{ title: "Edit readme", order: 1 }]);
    const n = issues[0]?.number ?? 0;
    await w.github.setLabels(n, ["order:1", "locus:failed", "agent:managed"]);
    await w.git(["checkout", "--quiet", "-B", "task", "origin/main"]);
    await writeFile(join(w.scratch, "README.md"), "# widgets, by the task\n");
    await w.git(["commit", "--quiet", "-am", "task change"]);
    await w.git(["push", "--quiet", "origin", `HEAD:refs/heads/locus/issue-${n}`]);
    await w.git(["checkout", "--quiet", "-B", "mainline", "origin/main"]);
    await writeFile(join(w.scratch, "README.md"), "# widgets, by a human\n");
    await w.git(["commit", "--quiet", "-am", "human change"]);
    await w.git(["push", "--quiet", "origin", "HEAD:main"]);
    const before = w.anthropic.requests.length;

    const result = await runSprint(milestone.number);

    expect(result.tasks.some((task) => task.fault)).toBe(false);
    expect(overallStatus(result)).toBe("failed");
    expect(w.anthropic.requests.length).toBe(before);
    expect(tracking("Sprint: Sprint Four")?.body).toContain("conflicts in: `README.md`");
    expect(tracking("Sprint: Sprint Four")?.body).toContain(`git checkout locus/issue-${n}`);
    expect(w.github.labelsOf(n)).toContain("locus:failed");
  });

  it("leaves out an issue a triage user put in the milestone: no model call, a note, the writers' tasks run", async () => {
    w.github.store.permissions.set("tracy", "triage");
    w.github.store.permissions.set("alice", "write");
    const { milestone, issues } = await sprint("Sprint Members", [{ title: "Task kept", order: 1 }]);
    const byWriter = w.github.seedIssue({
      title: "Task by alice",
      author: "alice",
      labels: ["locus:queued", "order:2"],
      milestone: milestone.number,
    });
    const smuggled = w.github.seedIssue({
      title: "Task smuggled",
      author: w.github.store.self,
      labels: ["locus:queued", "order:3"],
    });
    // Triage access is enough to set a milestone on GitHub, but not to choose the agent's work.
    moveToMilestone(w.github.store, smuggled, milestone.number, "tracy");
    w.anthropic.setScript(scriptFor(2));
    const before = w.anthropic.requests.length;

    const result = await runSprint(milestone.number);

    expect(result.tasks.some((task) => task.fault)).toBe(false);
    expect(overallStatus(result)).toBe("succeeded");
    const worked = w.anthropic.requests.slice(before).map(taskOf);
    expect(worked).toContain("Task kept");
    expect(worked).toContain("Task by alice");
    expect(worked).not.toContain("Task smuggled");
    expect(w.summary("sprint", result)).toContain(
      `#${smuggled.number} was put in this milestone by \`tracy\`, who has no write access`,
    );
    expect(w.github.labelsOf(smuggled.number)).toContain("locus:queued");
    expect(
      await w.github.findPullRequestByHead(`locus/issue-${smuggled.number}`, { state: "all" }),
    ).toBeNull();
    expect(w.github.labelsOf(issues[0]?.number ?? 0)).toContain("locus:in-review");
    expect(w.github.labelsOf(byWriter.number)).toContain("locus:in-review");
  });

  it("never stacks on a branch a triage user spliced in by moving a completed Locus issue into the milestone", async () => {
    w.github.store.permissions.set("tracy", "triage");
    w.github.store.permissions.set("alice", "write");
    const milestone = await w.github.createMilestone({ title: "Sprint Splice" });
    const spliced = w.github.seedIssue({
      title: "Old work",
      author: w.github.store.self,
      labels: ["locus:in-review", "order:1"],
    });
    const branch = `locus/issue-${spliced.number}`;
    await w.git(["checkout", "--quiet", "-b", branch, "origin/main"]);
    await w.git(["commit", "--quiet", "--allow-empty", "-m", "unreviewed work"]);
    await w.git(["push", "--quiet", "origin", branch]);
    moveToMilestone(w.github.store, spliced, milestone.number, "tracy");
    const task = w.github.seedIssue({
      title: "Task after the splice",
      author: "alice",
      labels: ["locus:queued", "order:2"],
      milestone: milestone.number,
    });
    w.anthropic.setScript(scriptFor(1));

    const result = await runSprint(milestone.number);

    expect(result.tasks.some((t) => t.fault)).toBe(false);
    expect(w.summary("sprint", result)).toContain(
      `#${spliced.number} was put in this milestone by \`tracy\``,
    );
    const pr = await w.github.findPullRequestByHead(`locus/issue-${task.number}`, { state: "all" });
    expect(pr?.base.ref).toBe("main");
  });
});
