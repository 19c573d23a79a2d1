/**
 * Issue item 2, GitHub calls per unit of work, counted by the simulator's request log: the
 * bundled Action run as test/action runs it (a child process against the simulator and the
 * Anthropic fake) for a standalone task, a sprint task and an iterate round; the app's sprint
 * activation for N = 10, 100, 250; and the naive reference (naive.ts) for the standalone task.
 */
import { randomUUID } from "node:crypto";
import { activateSprint } from "../../lib/triggers/activate-sprint.ts";
import { installLabels } from "../../lib/app/install-labels.ts";
import { advanceTask, statusTarget } from "../../lib/lifecycle/apply-effects.ts";
import { taskState } from "../../lib/lifecycle/lifecycle.ts";
import { EMPTY_STATE } from "../../lib/status/status-comment.ts";
import type { AppContext } from "../../lib/app/app-context.ts";
import { loadConfig } from "../../lib/config/index.ts";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import type { FakeTurn, RecordedRequest } from "../../sandbox/anthropic-fake/types.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import {
  OWNER,
  PROJECT_FILES,
  REPO,
  startHarness,
  type ActionRun,
  type Harness,
} from "../../test/action/harness.ts";
import { atLeast, atMost, exact } from "../lib/stats.ts";
import type { BenchContext, Benchmark, Figure } from "../lib/types.ts";
import { budgetCases } from "./budget-cases.ts";
import { BENCH, budgetFigures, perTask } from "./per-task.ts";
import { naiveStandaloneTask } from "./naive.ts";
import { counted, type Tally } from "./tally.ts";

const SPRINT_TASKS = 3;
const SPRINT_SIZES = [10, 100, 250];
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

function succeeded(run: ActionRun, what: string): void {
  if (run.code !== 0 || run.outputs["status"] !== "succeeded")
    throw new Error(
      `${what}: the Action ended ${run.code} ${run.outputs["status"] ?? ""}: ${run.stderr.slice(0, 500)}`,
    );
}

/** The GraphQL points Locus's own call counter recorded, from the line the Action logs at its end. */
function pointsOf(run: ActionRun | undefined): string {
  return /GraphQL points: (\d+(?: \([^)]*\))?)/.exec(run?.stdout ?? "")?.[1] ?? "unknown";
}

/** Each sprint task writes one file then finishes (as test/action's sprint tests script it). */
function sprintScript(count: number): FakeTurn[] {
  const turn = (request: RecordedRequest) => {
    const text = JSON.stringify(request.body);
    const task = /## Task: #(\d+)/.exec(text)?.[1] ?? "x";
    if (!text.includes("tool_result"))
      return reply(call("write_file", { path: `src/task-${task}.js`, content: `// ${task}\n` }));
    return reply(call("finish", { summary: `Did #${task}.` }));
  };
  return Array.from({ length: count * 2 }, () => turn);
}

async function standalone(h: Harness): Promise<{ locus: Tally; issue: number; pr: number; points: string }> {
  const issue = await h.api.createIssue({
    title: "Greet politely",
    body: "Say Hi.",
    labels: ["locus:queued", "type:feature"],
  });
  // As the app leaves it when it dispatches: its status comment, with the delivery it acted on.
  await advanceTask(
    statusTarget(h.api, issue, { comment: null, state: EMPTY_STATE }),
    taskState(issue.labels, EMPTY_STATE),
    { kind: "dispatch-recorded", headline: "Queued.", deliveries: [randomUUID()] },
  );
  h.fake.setScript([
    reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
    reply(call("finish", { summary: "Greeting now says Hi." })),
  ]);
  let run: ActionRun | undefined;
  const locus = await counted(
    h.sim.requestLog,
    async () => (run = await h.run({ mode: "issue", issue: String(issue.number) })),
  );
  succeeded(run!, "standalone task");
  return { locus, issue: issue.number, pr: Number(run!.outputs["pr-number"]), points: pointsOf(run) };
}

async function naive(h: Harness): Promise<Tally> {
  const issue = await h.api.createIssue({
    title: "Greet politely (naive)",
    labels: ["locus:queued", "type:feature"],
  });
  const branch = `naive/issue-${issue.number}`;
  await h.git(["checkout", "--quiet", "-b", branch, "origin/main"]);
  await h.git(["commit", "--quiet", "--allow-empty", "-m", "naive change"]);
  await h.git(["push", "--quiet", "origin", branch]);
  return counted(h.sim.requestLog, () =>
    naiveStandaloneTask({
      apiUrl: h.sim.apiUrl,
      token: h.token,
      owner: OWNER,
      repo: REPO,
      issue: issue.number,
      branch,
    }),
  );
}

async function iterate(h: Harness, issue: number, pr: number): Promise<{ tally: Tally; points: string }> {
  h.repo.collaborator("rev", "write");
  await h.as("rev").createReview(pr, {
    event: "REQUEST_CHANGES",
    body: "Almost there.",
    comments: [{ path: "src/greet.js", line: 2, body: "Use a template string here." }],
  });
  h.fake.setScript([
    reply(call("edit_file", { path: "src/greet.js", old_text: '"Hi, " + name', new_text: "`Hi, ${name}`" })),
    reply(call("finish", { summary: "Switched to a template string." })),
  ]);
  let run: ActionRun | undefined;
  const tally = await counted(
    h.sim.requestLog,
    async () => (run = await h.run({ mode: "iterate", pr: String(pr) })),
  );
  succeeded(run!, `iterate round on #${pr} (issue #${issue})`);
  return { tally, points: pointsOf(run) };
}

async function sprintTasks(h: Harness): Promise<{ tally: Tally; points: string }> {
  const milestone = await h.api.createMilestone({ title: "Bench sprint" });
  for (let i = 1; i <= SPRINT_TASKS; i++)
    await h.api.createIssue({
      title: `Task ${i}`,
      labels: ["locus:queued", `order:${i}`],
      milestone: milestone.number,
    });
  h.fake.setScript(sprintScript(SPRINT_TASKS));
  let run: ActionRun | undefined;
  const tally = await counted(
    h.sim.requestLog,
    async () => (run = await h.run({ mode: "sprint", milestone: String(milestone.number) })),
  );
  succeeded(run!, "sprint");
  return { tally, points: pointsOf(run) };
}

async function sprintStart(h: Harness, size: number, log: (line: string) => void): Promise<Figure> {
  const milestone = await h.api.createMilestone({ title: `Bench sprint of ${size}` });
  // Seeded without going through the log: only the activation is counted.
  for (let i = 0; i < size; i++)
    await h.repo.issue({ title: `Sprint task ${i + 1}`, milestone: milestone.number });
  const loaded = loadConfig(null);
  if (!loaded.ok) throw new Error("default config does not load");
  const ctx: AppContext = {
    gateway: h.api,
    config: loaded.config,
    delivery: randomUUID(),
    redeliveryRequested: () => false,
    defaultBranch: "main",
    log: quiet,
    selfLogins: [h.sim.app.botLogin],
    permissionOf: () => Promise.resolve("admin"),
    now: () => new Date(),
  };
  const t = await counted(h.sim.requestLog, () => activateSprint(ctx, milestone.number));
  log(
    `sprint start, N = ${size}: reads ${t.calls.filter((line) => line.startsWith("GET") || line.includes("graphql")).join(", ")}`,
  );
  const limit = 1 + Math.ceil(size / 100);
  return {
    benchmark: BENCH,
    name: `sprint start (app activation), N = ${size}: reads`,
    unit: "reads",
    value: exact(t.reads),
    baseline: { name: "naive N + 1", value: exact(size + 1) },
    ratio: t.reads / (size + 1),
    goals: [atMost(`≤ 1 + ⌈N/100⌉ = ${limit}`, t.reads, limit)],
    note: `${t.writes} writes (a new order label each, the label sets 50 to a request)`,
  };
}

async function run(ctx: BenchContext): Promise<Figure[]> {
  // The caller workflow as the README has users commit it: the sprint's dispatch goes to it.
  const h = await startHarness({ ...PROJECT_FILES, ...callerWorkflowFiles() });
  try {
    // The app creates Locus's labels when it is installed, before any task.
    await installLabels(h.api);
    ctx.log("standalone task");
    const task = await standalone(h);
    const reference = await naive(h);
    ctx.log("iterate round");
    const iterated = await iterate(h, task.issue, task.pr);
    ctx.log(`sprint of ${SPRINT_TASKS}`);
    const sprint = await sprintTasks(h);
    for (const [what, t] of [
      ["standalone", task.locus],
      ["naive", reference],
      ["iterate", iterated.tally],
      ["sprint", sprint.tally],
    ] as const) {
      ctx.log(`${what}: ${t.routes.join(", ")}`);
      t.calls.forEach((line, i) => ctx.log(`  ${what} ${i + 1}. ${line}`));
    }
    const figures: Figure[] = [
      {
        ...perTask("standalone task (Action)", task.locus, 1, 5, task.points, [
          atLeast("≥ 3× fewer than naive", reference.total / (task.locus.total - task.locus.identity), 3),
        ]),
        baseline: { name: "naive reference", value: exact(reference.total) },
        ratio: (task.locus.total - task.locus.identity) / reference.total,
      },
      perTask(
        `sprint task (Action, ${SPRINT_TASKS}-task sprint, per task)`,
        sprint.tally,
        SPRINT_TASKS,
        5.5,
        `${sprint.points} for the run`,
      ),
      perTask("iterate round (Action)", iterated.tally, 1, 5, iterated.points),
    ];
    ctx.log("standalone tasks: a repository without Locus's labels, a task a person triggered");
    const cases = await budgetCases();
    for (const [what, t] of [
      ["unlabelled first", cases.unlabelledFirst],
      ["unlabelled later", cases.unlabelledLater],
      ["person-triggered", cases.personTriggered],
    ] as const)
      t.calls.forEach((line, i) => ctx.log(`  ${what} ${i + 1}. ${line}`));
    figures.push(...budgetFigures(cases));
    for (const size of SPRINT_SIZES) {
      ctx.log(`sprint start, N = ${size}`);
      figures.push(await sprintStart(h, size, ctx.log));
    }
    return figures;
  } finally {
    await h.close();
  }
}

export const githubCallsBenchmark: Benchmark = {
  name: BENCH,
  description:
    "GitHub calls per task, sprint task, iterate round, sprint start (N = 10/100/250) vs a naive reference",
  run,
};
