/**
 * Mode `sprint` through the bundled Action: one three-task stack end to end
 * (branches, PR bases and diffs, the pointer branch, prompts, the tracking
 * issue). The mode's other scenarios run in process, on the task world:
 * test/lib/action/modes/sprint-mode.test.ts.
 */
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

/** Each task writes `src/<slug>.js` then finishes. */
function scriptFor(count: number): FakeTurn[] {
  const turn = (request: RecordedRequest) => {
    const task = taskOf(request);
    const slug = task.toLowerCase().replace(/\W+/g, "-");
    if (!JSON.stringify(request.body).includes("tool_result"))
      return reply(call("write_file", { path: `src/${slug}.js`, content: `// ${task}\n` }));
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
});
