import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import type { FakeTurn, RecordedRequest } from "../../sandbox/anthropic-fake/types.ts";
import { startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h.close();
});

async function sprint(title: string, tasks: Array<{ title: string; order?: number }>) {
  const milestone = await h.api.createMilestone({ title });
  const issues = [];
  for (const task of tasks) {
    const labels = ["locus:queued", ...(task.order === undefined ? [] : [`order:${task.order}`])];
    issues.push(await h.api.createIssue({ title: task.title, labels, milestone: milestone.number }));
  }
  return { milestone, issues };
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

describe("mode sprint", () => {
  it("stacks three tasks with orders 1, 2, 5: branches, PR bases, pointer and prompts", async () => {
    const { milestone, issues } = await sprint("Sprint One", [
      { title: "Task alpha", order: 1 },
      { title: "Task beta", order: 2 },
      { title: "Task gamma", order: 5 },
    ]);
    const [a, b, c] = issues.map((issue) => issue.number) as [number, number, number];
    h.fake.setScript(scriptFor(3));

    const run = await h.run({ mode: "sprint", milestone: String(milestone.number) });

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("succeeded");
    const prs = await Promise.all(
      [a, b, c].map((n) => h.api.findPullRequestByHead(`locus/issue-${n}`, { state: "open" })),
    );
    expect(prs.map((pr) => pr?.base.ref)).toEqual(["main", `locus/issue-${a}`, `locus/issue-${b}`]);
    expect(prs[1]?.body).toContain(`Stacked on #${prs[0]?.number}`);
    // Each PR shows only its own diff.
    const diff = await h.api.getPullRequestDiff(prs[2]?.number ?? 0);
    expect(diff).toContain("src/task-gamma.js");
    expect(diff).not.toContain("src/task-beta.js");
    expect(await h.show(`locus/issue-${c}`, "src/task-alpha.js")).toContain("Task alpha");
    const pointer = await h.git(["rev-parse", "origin/locus/sprint-sprint-one"]);
    expect(pointer.trim()).toBe((await h.git(["rev-parse", `origin/locus/issue-${c}`])).trim());
    for (const n of [a, b, c]) expect((await h.api.getIssue(n))?.labels).toContain("locus:in-review");
    const gammaPrompt = JSON.stringify(h.fake.requests.findLast((r) => taskOf(r) === "Task gamma")?.body);
    expect(gammaPrompt).toContain("task 3 of 3");
    expect(gammaPrompt).toContain("Did Task beta.");
    expect(gammaPrompt).toContain("src/task-beta.js");
    const tracking = (await h.api.listIssues({ state: "open" })).find(
      (i) => i.title === "Sprint: Sprint One",
    );
    expect(tracking?.body).toContain("| 5 | #");
    expect(tracking?.body).toContain("```mermaid");
    expect(tracking?.body).toContain('"state":"finished"');
  });

  it("stops at the first failure and resumes there on the next run", async () => {
    const { milestone, issues } = await sprint("Sprint Two", [
      { title: "Task one", order: 1 },
      { title: "Task two", order: 2 },
      { title: "Task three", order: 3 },
    ]);
    const [one, two, three] = issues.map((issue) => issue.number) as [number, number, number];
    h.fake.setScript(scriptFor(2, ["Task two"]));

    const first = await h.run({ mode: "sprint", milestone: String(milestone.number) });

    expect(first.code).toBe(0);
    expect(first.outputs["status"]).toBe("failed");
    expect((await h.api.getIssue(one))?.labels).toContain("locus:in-review");
    expect((await h.api.getIssue(two))?.labels).toContain("locus:failed");
    expect((await h.api.getIssue(three))?.labels).toContain("locus:queued");
    expect(await h.show(`locus/wip/issue-${two}`, "src/task-two.js")).toContain("Task two");
    const tracking = (await h.api.listIssues({ state: "open" })).find(
      (i) => i.title === "Sprint: Sprint Two",
    );
    expect(tracking?.body).toContain(`#${two} failed`);

    h.fake.setScript([
      reply(call("finish", { summary: "Finished task two from its checkpoint." })),
      ...scriptFor(1),
    ]);
    const second = await h.run({ mode: "sprint", milestone: String(milestone.number) });

    expect(second.outputs["status"]).toBe("succeeded");
    expect(second.summary).not.toContain(`#${one} Task one`);
    const prTwo = await h.api.findPullRequestByHead(`locus/issue-${two}`);
    const prThree = await h.api.findPullRequestByHead(`locus/issue-${three}`);
    expect(prTwo?.base.ref).toBe(`locus/issue-${one}`);
    expect(prThree?.base.ref).toBe(`locus/issue-${two}`);
    expect(await h.show(`locus/issue-${two}`, "src/task-two.js")).toContain("Task two");
    for (const n of [one, two, three]) expect((await h.api.getIssue(n))?.labels).toContain("locus:in-review");
  });

  it("keeps its dashboard on a tracking issue Locus opened, never on a look-alike a triage user made", async () => {
    h.repo.collaborator("tracy", "triage");
    const fake = await h.as("tracy").createIssue({ title: "Sprint: Sprint Forged", body: "mine" });
    await h.as("tracy").setLabels(fake.number, ["agent:managed"]);
    const { milestone } = await sprint("Sprint Forged", [{ title: "Task solo", order: 1 }]);
    h.fake.setScript(scriptFor(1));

    const run = await h.run({ mode: "sprint", milestone: String(milestone.number) });

    expect(run.outputs["status"]).toBe("succeeded");
    expect((await h.api.getIssue(fake.number))?.body).toBe("mine");
    const tracking = (await h.api.listIssues({ state: "open" })).filter(
      (i) => i.title === "Sprint: Sprint Forged" && i.number !== fake.number,
    );
    expect(tracking).toHaveLength(1);
    expect(tracking[0]?.body).toContain("```mermaid");
  });

  it("stops before any work when an issue has no order label, naming it", async () => {
    const { milestone, issues } = await sprint("Sprint Three", [
      { title: "Ordered", order: 1 },
      { title: "Loose" },
    ]);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "sprint", milestone: String(milestone.number) });

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("skipped");
    expect(run.summary).toContain(`Issues without an order label: #${issues[1]?.number}`);
    expect(h.fake.requests.length).toBe(before);
  });

  it("stops with the conflicting files when rebasing a retried task onto a moved base conflicts", async () => {
    const { milestone, issues } = await sprint("Sprint Four", [{ title: "Edit readme", order: 1 }]);
    const n = issues[0]?.number ?? 0;
    await h.api.setLabels(n, ["order:1", "locus:failed", "agent:managed"]);
    await h.git(["checkout", "--quiet", "-B", "task", "origin/main"]);
    await writeFile(join(h.scratch, "README.md"), "# widgets, by the task\n");
    await h.git(["commit", "--quiet", "-am", "task change"]);
    await h.git(["push", "--quiet", "origin", `HEAD:refs/heads/locus/issue-${n}`]);
    await h.git(["checkout", "--quiet", "-B", "mainline", "origin/main"]);
    await writeFile(join(h.scratch, "README.md"), "# widgets, by a human\n");
    await h.git(["commit", "--quiet", "-am", "human change"]);
    await h.git(["push", "--quiet", "origin", "HEAD:main"]);
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "sprint", milestone: String(milestone.number) });

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("failed");
    expect(h.fake.requests.length).toBe(before);
    const tracking = (await h.api.listIssues({ state: "open" })).find(
      (i) => i.title === "Sprint: Sprint Four",
    );
    expect(tracking?.body).toContain("conflicts in: `README.md`");
    expect(tracking?.body).toContain(`git checkout locus/issue-${n}`);
    expect((await h.api.getIssue(n))?.labels).toContain("locus:failed");
  });

  it("leaves out an issue a triage user put in the milestone: no model call, a note, the writers' tasks run", async () => {
    h.repo.collaborator("tracy", "triage").collaborator("alice", "write");
    const { milestone, issues } = await sprint("Sprint Members", [{ title: "Task kept", order: 1 }]);
    const byWriter = await h.as("alice").createIssue({
      title: "Task by alice",
      labels: ["locus:queued", "order:2"],
      milestone: milestone.number,
    });
    const smuggled = await h.api.createIssue({ title: "Task smuggled", labels: ["locus:queued", "order:3"] });
    // Triage access is enough to set a milestone on GitHub, but not to choose the agent's work.
    await h.as("tracy").updateIssue(smuggled.number, { milestone: milestone.number });
    h.fake.setScript(scriptFor(2));
    const before = h.fake.requests.length;

    const run = await h.run({ mode: "sprint", milestone: String(milestone.number) });

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("succeeded");
    const worked = h.fake.requests.slice(before).map(taskOf);
    expect(worked).toContain("Task kept");
    expect(worked).toContain("Task by alice");
    expect(worked).not.toContain("Task smuggled");
    expect(run.summary).toContain(
      `#${smuggled.number} was put in this milestone by \`tracy\`, who has no write access`,
    );
    expect((await h.api.getIssue(smuggled.number))?.labels).toContain("locus:queued");
    expect(await h.api.findPullRequestByHead(`locus/issue-${smuggled.number}`, { state: "all" })).toBeNull();
    expect((await h.api.getIssue(issues[0]?.number ?? 0))?.labels).toContain("locus:in-review");
    expect((await h.api.getIssue(byWriter.number))?.labels).toContain("locus:in-review");
  });

  it("never stacks on a branch a triage user spliced in by moving a completed Locus issue into the milestone", async () => {
    h.repo.collaborator("tracy", "triage").collaborator("alice", "write");
    const milestone = await h.api.createMilestone({ title: "Sprint Splice" });
    const spliced = await h.api.createIssue({ title: "Old work", labels: ["locus:in-review", "order:1"] });
    const branch = `locus/issue-${spliced.number}`;
    await h.git(["checkout", "--quiet", "-b", branch, "origin/main"]);
    await h.git(["commit", "--quiet", "--allow-empty", "-m", "unreviewed work"]);
    await h.git(["push", "--quiet", "origin", branch]);
    await h.as("tracy").updateIssue(spliced.number, { milestone: milestone.number });
    const task = await h.as("alice").createIssue({
      title: "Task after the splice",
      labels: ["locus:queued", "order:2"],
      milestone: milestone.number,
    });
    h.fake.setScript(scriptFor(1));

    const run = await h.run({ mode: "sprint", milestone: String(milestone.number) });

    expect(run.code).toBe(0);
    expect(run.summary).toContain(`#${spliced.number} was put in this milestone by \`tracy\``);
    const pr = await h.api.findPullRequestByHead(`locus/issue-${task.number}`, { state: "all" });
    expect(pr?.base.ref).toBe("main");
  });
});
