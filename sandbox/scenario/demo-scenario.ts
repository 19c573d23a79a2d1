/**
 * The demo's story, played as a person would on GitHub: every action is a
 * call to the simulator's HTTP API as the human user (the app's installation,
 * which GitHub does through its web UI, is the simulator's installation
 * event). Each step then waits for the world to settle and checks GitHub's
 * state; a step's problems are what did not happen as expected.
 */
import { LOCUS_LABELS } from "../../lib/labels/schema.ts";
import { DEMO_ISSUES, REPLAY_NOTICE, TRUNCATE_QUESTION } from "../replay/transcripts.ts";
import { HUMAN, type RestClient, type World } from "../world/start-world.ts";
import { reader, type Reader } from "./github-state.ts";

export interface ScenarioState {
  readonly world: World;
  readonly human: RestClient;
  readonly read: Reader;
  readonly repo: { readonly owner: string; readonly repo: string };
  /** Issue numbers by DEMO_ISSUES key, the milestone and the PRs, as the story creates them. */
  readonly issues: Partial<Record<keyof typeof DEMO_ISSUES, number>>;
  milestone?: number;
  statusComment?: number;
}

export interface Step {
  readonly title: string;
  /** What the progress line says while the world works. */
  readonly waiting: string;
  act(state: ScenarioState): Promise<void>;
  /** Problems found; empty when the step happened as expected. */
  check(state: ScenarioState): Promise<string[]>;
}

export const MILESTONE_TITLE = "v0.2: text utilities";

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing: an earlier step did not create it`);
  return value;
}

function expectThat(problems: string[], ok: boolean, problem: string): void {
  if (!ok) problems.push(problem);
}

/** A 1×1 PNG: the screenshot the standalone issue carries, as a person would drag one into it. */
const SCREENSHOT = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * Opens a demo issue as a feature and labels it `locus:queued`, as a person would; then lets the
 * world work. `screenshot` attaches an image to its description the way GitHub does.
 */
async function queueDemoIssue(
  state: ScenarioState,
  key: keyof typeof DEMO_ISSUES,
  options: { readonly screenshot?: boolean } = {},
): Promise<void> {
  const { human, repo } = state;
  const issue = DEMO_ISSUES[key];
  const body = options.screenshot
    ? `${issue.body}\n\n![screenshot](${state.world.sim.attach(`${repo.owner}/${repo.repo}`, SCREENSHOT)})`
    : issue.body;
  const { data } = await human.rest.issues.create({ ...repo, ...issue, body, labels: ["type:feature"] });
  state.issues[key] = data.number;
  await human.rest.issues.addLabels({ ...repo, issue_number: data.number, labels: ["locus:queued"] });
  await state.world.settle();
}

async function expectTaskPull(
  state: ScenarioState,
  problems: string[],
  issue: number,
  base: string,
): Promise<void> {
  const pull = await state.read.pullForBranch(`locus/issue-${issue}`);
  if (!pull) {
    problems.push(`no pull request from locus/issue-${issue}`);
    return;
  }
  expectThat(problems, pull.base === base, `PR #${pull.number} is based on ${pull.base}, expected ${base}`);
  expectThat(problems, pull.body.includes(`Closes #${issue}`), `PR #${pull.number} does not close #${issue}`);
  // Only the replay model's work carries its notice; an ACP agent's is its own.
  if (state.world.replay && state.world.provider === "builtin") {
    expectThat(
      problems,
      pull.body.includes(REPLAY_NOTICE),
      `PR #${pull.number} does not say it was replayed`,
    );
  }
  const labels = (await state.read.issue(issue)).labels;
  expectThat(
    problems,
    labels.includes("locus:in-review"),
    `#${issue} is ${labels.join(", ")}, not in review`,
  );
}

const install: Step = {
  title: "Install the Locus app on the repository → its labels appear",
  waiting: "the app creates its labels",
  async act({ world }) {
    world.sim.seed.installation(world.owner, { webhooks: true });
    await world.settle();
  },
  async check({ read }) {
    const names = await read.labelNames();
    return LOCUS_LABELS.filter((label) => !names.includes(label.name)).map(
      (label) => `label ${label.name} missing`,
    );
  },
};

const standalone: Step = {
  title: "Label a standalone issue locus:queued → a pull request",
  waiting: "Locus works on the issue",
  act: (state) => queueDemoIssue(state, "capitalize", { screenshot: true }),
  async check(state) {
    const issue = need(state.issues.capitalize, "the standalone issue");
    // The project's tests run while GitHub's state is read (so in every check that runs them).
    const tests = state.read.testsPass(`locus/issue-${issue}`);
    const problems: string[] = [];
    await expectTaskPull(state, problems, issue, "main");
    if (state.world.replay && state.world.provider === "builtin") {
      expectThat(
        problems,
        state.world.replay.fake.requests.some((request) =>
          JSON.stringify(request.body).includes('"type":"image"'),
        ),
        `the agent was not shown the screenshot attached to #${issue}`,
      );
    }
    expectThat(problems, await tests, `the tests fail on locus/issue-${issue}`);
    return problems;
  },
};

const ciFix: Step = {
  title: "A Locus PR whose CI fails → Locus fixes it from the log → CI turns green",
  waiting: "CI runs, Locus fixes the failure, CI runs again",
  act: (state) => queueDemoIssue(state, "shout"),
  async check(state) {
    const issue = need(state.issues.shout, "the shout issue");
    const branch = `locus/issue-${issue}`;
    const tests = state.read.testsPass(branch);
    const problems: string[] = [];
    await expectTaskPull(state, problems, issue, "main");
    const commits = await state.read.log(`main..${branch}`);
    expectThat(
      problems,
      commits[0]?.subject === `fix: make CI pass (#${issue})` &&
        commits[0].author === state.world.sim.bot.login,
      `the newest commit on ${branch} is "${commits[0]?.subject}" by ${commits[0]?.author}`,
    );
    const ciRuns = (state.world.sim.store.repos.get(`${state.repo.owner}/${state.repo.repo}`)?.runs ?? [])
      .filter((run) => run.name === "CI" && run.headBranch === branch)
      .map((run) => run.conclusion);
    expectThat(
      problems,
      ciRuns.join(",") === "failure,success",
      `CI on ${branch} concluded ${ciRuns.join(", ") || "nothing"}, expected failure then success`,
    );
    const pull = need(await state.read.pullForBranch(branch), "the shout PR");
    const said = (await state.read.comments(pull.number)).map((comment) => comment.body).join("\n");
    expectThat(problems, said.includes("CI failed on"), `PR #${pull.number} has no comment on what failed`);
    expectThat(problems, await tests, `the tests fail on ${branch}`);
    return problems;
  },
};

const sprint: Step = {
  title: `Activate milestone "${MILESTONE_TITLE}" (orders 1, 2, 5) → the sprint runs in order and stops at a failure`,
  waiting: "the sprint runs",
  async act(state) {
    const { human, repo } = state;
    const { data: milestone } = await human.rest.issues.createMilestone({ ...repo, title: MILESTONE_TITLE });
    state.milestone = milestone.number;
    const planned = [
      ["words", "order:1", "type:feature"],
      ["slugEdges", "order:2", "type:bug"],
      ["docs", "order:5", "type:docs"],
    ] as const;
    for (const [key, order, type] of planned) {
      const { data } = await human.rest.issues.create({
        ...repo,
        ...DEMO_ISSUES[key],
        milestone: milestone.number,
        labels: [order, type],
      });
      state.issues[key] = data.number;
    }
    await state.world.settle();
    await human.rest.issues.updateMilestone({
      ...repo,
      milestone_number: milestone.number,
      description: "String helpers for the next release.\n\nlocus: active",
    });
    await state.world.settle();
  },
  async check(state) {
    const words = need(state.issues.words, "the order:1 issue");
    const slug = need(state.issues.slugEdges, "the order:2 issue");
    const docs = need(state.issues.docs, "the order:5 issue");
    const problems: string[] = [];
    await expectTaskPull(state, problems, words, "main");
    // Only the replay model can be told to fail; a real model's sprint simply runs on.
    if (!state.world.replay) return problems;
    const slugLabels = (await state.read.issue(slug)).labels;
    expectThat(
      problems,
      slugLabels.includes("locus:failed"),
      `#${slug} is ${slugLabels.join(", ")}, not failed`,
    );
    const failure = (await state.read.comments(slug)).some(
      (comment) =>
        comment.author === state.world.sim.app.botLogin && comment.body.includes("could not finish"),
    );
    expectThat(problems, failure, `no failure comment on #${slug}`);
    expectThat(
      problems,
      await state.read.branchExists(`locus/wip/issue-${slug}`),
      `no wip branch kept for #${slug}`,
    );
    const docsLabels = (await state.read.issue(docs)).labels;
    expectThat(
      problems,
      docsLabels.includes("locus:queued"),
      `#${docs} is ${docsLabels.join(", ")}, not waiting queued`,
    );
    expectThat(
      problems,
      (await state.read.pullForBranch(`locus/issue-${docs}`)) === undefined,
      `#${docs} ran past the failure`,
    );
    return problems;
  },
};

const resume: Step = {
  title: "Comment /locus run on the failed task → the sprint resumes: three stacked PRs",
  waiting: "the sprint resumes",
  async act(state) {
    const slug = need(state.issues.slugEdges, "the order:2 issue");
    await state.human.rest.issues.createComment({ ...state.repo, issue_number: slug, body: "/locus run" });
    await state.world.settle();
  },
  async check(state) {
    const words = need(state.issues.words, "the order:1 issue");
    const slug = need(state.issues.slugEdges, "the order:2 issue");
    const docs = need(state.issues.docs, "the order:5 issue");
    const tests = state.read.testsPass(`locus/issue-${docs}`);
    const problems: string[] = [];
    await expectTaskPull(state, problems, slug, `locus/issue-${words}`);
    await expectTaskPull(state, problems, docs, `locus/issue-${slug}`);
    expectThat(
      problems,
      !(await state.read.branchExists(`locus/wip/issue-${slug}`)),
      `the wip branch of #${slug} was not cleaned up`,
    );
    expectThat(problems, await tests, `the tests fail on the sprint's last branch`);
    return problems;
  },
};

const iterate: Step = {
  title: "Review comment on the PR + /locus iterate → a new commit on the same PR",
  waiting: "Locus addresses the review",
  async act(state) {
    const issue = need(state.issues.capitalize, "the standalone issue");
    const pull = need(await state.read.pullForBranch(`locus/issue-${issue}`), "the standalone PR");
    const { data } = await state.human.rest.pulls.get({ ...state.repo, pull_number: pull.number });
    await state.human.rest.pulls.createReviewComment({
      ...state.repo,
      pull_number: pull.number,
      commit_id: data.head.sha,
      path: "src/capitalize.js",
      line: 2,
      side: "RIGHT",
      body: "What about an empty string? `text[0]` is undefined there.",
    });
    await state.human.rest.issues.createComment({
      ...state.repo,
      issue_number: pull.number,
      body: "/locus iterate handle the empty string too",
    });
    await state.world.settle();
  },
  async check(state) {
    const issue = need(state.issues.capitalize, "the standalone issue");
    const tests = state.read.testsPass(`locus/issue-${issue}`);
    const problems: string[] = [];
    const commits = await state.read.log(`main..locus/issue-${issue}`);
    expectThat(
      problems,
      commits.length === 2,
      `locus/issue-${issue} has ${commits.length} commits, expected 2`,
    );
    const newest = commits[0];
    expectThat(
      problems,
      newest?.subject === `fix: address review feedback (#${issue})` &&
        newest.author === state.world.sim.bot.login,
      `the newest commit is "${newest?.subject}" by ${newest?.author}`,
    );
    const labels = (await state.read.issue(issue)).labels;
    expectThat(
      problems,
      labels.includes("locus:in-review"),
      `#${issue} is ${labels.join(", ")}, not back in review`,
    );
    expectThat(problems, await tests, `the tests fail after the iteration`);
    return problems;
  },
};

const merge: Step = {
  title: "Merge the PR → its issue is done",
  waiting: "the app marks the issue done",
  async act(state) {
    const issue = need(state.issues.capitalize, "the standalone issue");
    const pull = need(await state.read.pullForBranch(`locus/issue-${issue}`), "the standalone PR");
    await state.human.rest.pulls.merge({ ...state.repo, pull_number: pull.number, merge_method: "squash" });
    await state.world.settle();
  },
  async check(state) {
    const issue = need(state.issues.capitalize, "the standalone issue");
    const problems: string[] = [];
    const pull = await state.read.pullForBranch(`locus/issue-${issue}`);
    expectThat(problems, pull?.merged === true, `PR of #${issue} is not merged`);
    const labels = (await state.read.issue(issue)).labels;
    expectThat(problems, labels.includes("locus:done"), `#${issue} is ${labels.join(", ")}, not done`);
    return problems;
  },
};

const status: Step = {
  title: "Comment /locus status on a sprint issue → the repository summary",
  waiting: "the app answers",
  async act(state) {
    const words = need(state.issues.words, "the order:1 issue");
    state.statusComment = (await state.read.comments(words)).length;
    await state.human.rest.issues.createComment({
      ...state.repo,
      issue_number: words,
      body: "/locus status",
    });
    await state.world.settle();
  },
  async check(state) {
    const words = need(state.issues.words, "the order:1 issue");
    const since = need(state.statusComment, "the comment count before /locus status");
    const replies = (await state.read.comments(words))
      .slice(since)
      .filter((comment) => comment.author === state.world.sim.app.botLogin);
    const summary = replies.find((comment) => comment.body.startsWith("## Locus status:"))?.body ?? "";
    const lines = summary.split("\n");
    const problems: string[] = [];
    expectThat(problems, summary !== "", "no summary reply");
    expectThat(
      problems,
      // A paragraph that opens with `#` is written `\#` so it cannot read as a heading.
      lines.some((line) => line.replace(/^\\#/, "#").startsWith(`#${words} is \`locus:in-review\` · PR #`)),
      `the summary does not open with #${words}'s status and PR`,
    );
    // The sprint finished: its three tasks are in review, and its tracking issue is linked.
    const sprintRow = lines.find((line) => line.startsWith(`| [${MILESTONE_TITLE}](`)) ?? "";
    expectThat(problems, sprintRow.includes("3/3"), `the sprint row is not 3/3: ${sprintRow || "missing"}`);
    expectThat(problems, /\| \[#\d+\]\([^)]*\/issues\/\d+\) \|$/.test(sprintRow), "no tracking-issue link");
    for (const key of ["words", "slugEdges", "docs"] as const) {
      const number = need(state.issues[key], key);
      expectThat(
        problems,
        lines.some((line) => line.startsWith("| [#") && line.endsWith(`| #${number} |`)),
        `the open pull requests do not list #${number}'s`,
      );
    }
    expectThat(problems, /GitHub API calls left, resets \d\d:\d\d UTC/.test(summary), "no API budget");
    return problems;
  },
};

const restackStep: Step = {
  title: "Squash-merge the sprint's first PR → the PRs above are retargeted and restacked",
  waiting: "Locus restacks the sprint's PRs",
  async act(state) {
    const words = need(state.issues.words, "the order:1 issue");
    const pull = need(await state.read.pullForBranch(`locus/issue-${words}`), "the sprint's first PR");
    await state.human.rest.pulls.merge({ ...state.repo, pull_number: pull.number, merge_method: "squash" });
    await state.world.settle();
  },
  async check(state) {
    const words = need(state.issues.words, "the order:1 issue");
    const slug = need(state.issues.slugEdges, "the order:2 issue");
    const docs = need(state.issues.docs, "the order:5 issue");
    const tests = state.read.testsPass(`locus/issue-${docs}`);
    const problems: string[] = [];
    const slugPull = await state.read.pullForBranch(`locus/issue-${slug}`);
    expectThat(problems, slugPull?.base === "main", `PR of #${slug} is based on ${slugPull?.base}, not main`);
    const docsPull = await state.read.pullForBranch(`locus/issue-${docs}`);
    expectThat(
      problems,
      docsPull?.base === `locus/issue-${slug}`,
      `PR of #${docs} is based on ${docsPull?.base}, not locus/issue-${slug}`,
    );
    for (const [issue, base] of [
      [slug, "main"],
      [docs, `locus/issue-${slug}`],
    ] as const) {
      const own = await state.read.log(`${base}..locus/issue-${issue}`);
      expectThat(
        problems,
        own.length > 0 && own.every((commit) => !commit.subject.includes(`(#${words})`)),
        `locus/issue-${issue} still carries #${words}'s commits: ${own.map((c) => c.subject).join("; ")}`,
      );
    }
    expectThat(problems, await tests, "the tests fail on the restacked stack");
    return problems;
  },
};

const ask: Step = {
  title: "Label an unclear issue locus:queued → Locus asks a question and waits (locus:waiting)",
  waiting: "Locus works on the issue",
  async act(state) {
    const { human, repo } = state;
    const { data } = await human.rest.issues.create({
      ...repo,
      ...DEMO_ISSUES.truncate,
      labels: ["type:feature", "locus:queued"],
    });
    state.issues.truncate = data.number;
    await state.world.settle();
  },
  async check(state) {
    const issue = need(state.issues.truncate, "the unclear issue");
    const problems: string[] = [];
    const labels = (await state.read.issue(issue)).labels;
    expectThat(problems, labels.includes("locus:waiting"), `#${issue} is ${labels.join(", ")}, not waiting`);
    // The replay model asks on cue; a real model may not need to.
    if (!state.world.replay) return problems;
    const asked = (await state.read.comments(issue)).some(
      (comment) =>
        comment.author === state.world.sim.app.botLogin &&
        comment.body.includes(`@${HUMAN} Locus has a question`) &&
        comment.body.includes(TRUNCATE_QUESTION),
    );
    expectThat(problems, asked, `no question for @${HUMAN} on #${issue}`);
    expectThat(
      problems,
      await state.read.branchExists(`locus/wip/issue-${issue}`),
      `the work so far of #${issue} is not saved on wip`,
    );
    return problems;
  },
};

const answer: Step = {
  title: "Answer the question in a comment → Locus continues from its saved work: a pull request",
  waiting: "Locus continues with the answer",
  async act(state) {
    const issue = need(state.issues.truncate, "the unclear issue");
    await state.human.rest.issues.createComment({
      ...state.repo,
      issue_number: issue,
      body: "Yes, end with …, and count it in the length.",
    });
    await state.world.settle();
  },
  async check(state) {
    const issue = need(state.issues.truncate, "the unclear issue");
    const tests = state.read.testsPass(`locus/issue-${issue}`);
    const problems: string[] = [];
    await expectTaskPull(state, problems, issue, "main");
    expectThat(problems, await tests, `the tests fail on locus/issue-${issue}`);
    return problems;
  },
};

export const DEMO_STEPS: readonly Step[] = [
  install,
  standalone,
  ciFix,
  sprint,
  resume,
  iterate,
  merge,
  status,
  restackStep,
  ask,
  answer,
];

export function scenarioState(world: World): ScenarioState {
  const human = world.as(HUMAN);
  return {
    world,
    human,
    read: reader(world, human),
    repo: { owner: world.owner, repo: world.repo },
    issues: {},
  };
}

export interface StepOutcome {
  readonly title: string;
  readonly problems: readonly string[];
  readonly ms: number;
}

export interface PlayHooks {
  readonly beforeStep?: (step: Step) => void;
  readonly afterStep?: (outcome: StepOutcome) => void;
}

/** Plays the steps in order; a step that throws counts as a problem and the story stops there. */
export async function playScenario(
  state: ScenarioState,
  steps: readonly Step[] = DEMO_STEPS,
  hooks: PlayHooks = {},
): Promise<StepOutcome[]> {
  const outcomes: StepOutcome[] = [];
  for (const step of steps) {
    hooks.beforeStep?.(step);
    const started = Date.now();
    let problems: string[];
    try {
      await step.act(state);
      problems = await step.check(state);
    } catch (error) {
      problems = [`step failed: ${error instanceof Error ? error.message : String(error)}`];
    }
    const outcome = { title: step.title, problems, ms: Date.now() - started };
    outcomes.push(outcome);
    hooks.afterStep?.(outcome);
    if (problems.some((problem) => problem.startsWith("step failed"))) break;
  }
  return outcomes;
}
