/**
 * Ask and wait, through the real app, the bundled Action and the simulator:
 * the agent asks (two questions in one turn), the run ends successfully with
 * the questions on the issue, the work on `locus/wip/issue-N` and the issue
 * `locus:waiting`; a reader's reply and the stale sweep change nothing; a
 * writer's reply queues it again and the next run continues from the wip with
 * the questions and the answer in its prompt. In a sprint, the waiting task
 * stops the sprint and the answer resumes it there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply, say } from "../../sandbox/anthropic-fake/script.ts";
import { REPLAY_NOTICE, type Transcript } from "../../sandbox/replay/transcripts.ts";
import { reader, type Reader } from "../../sandbox/scenario/github-state.ts";
import { HUMAN, startWorld, type RestClient, type World } from "../../sandbox/world/start-world.ts";
import { sharedActionBundle } from "../action-bundle.ts";
import { worldSandboxMode } from "../needs-bubblewrap.ts";

const QUESTIONS = ["Should shout add an exclamation mark?", "Upper-case every letter, or only the first?"];

/** Asks two questions on its first attempt; finishes on its second. */
function asking(name: string): Transcript {
  return {
    name,
    matches: (prompt) => new RegExp(`## Task: #\\d+ Add ${name}\\s`).test(prompt),
    attempts: [
      [
        reply(call("write_file", { path: `src/${name}.js`, content: `// draft of ${name}\n` })),
        reply(
          say("Two things are unclear."),
          call("ask_user", { question: QUESTIONS[0] ?? "" }),
          call("ask_user", { question: QUESTIONS[1] ?? "" }),
        ),
      ],
      [
        reply(call("read_file", { path: `src/${name}.js` })),
        reply(
          call("write_file", {
            path: `src/${name}.js`,
            content: `export const ${name} = (text) => text.toUpperCase() + "!";\n`,
          }),
        ),
        reply(call("finish", { summary: `${REPLAY_NOTICE}\n\nAdded ${name} as answered.` })),
      ],
    ],
  };
}

function plain(name: string): Transcript {
  return {
    name,
    matches: (prompt) => new RegExp(`## Task: #\\d+ Add ${name}\\s`).test(prompt),
    attempts: [
      [
        reply(call("write_file", { path: `src/${name}.js`, content: `export const ${name} = 1;\n` })),
        reply(call("finish", { summary: `${REPLAY_NOTICE}\n\nAdded ${name}.` })),
      ],
    ],
  };
}

let world: World;
let human: RestClient;
let read: Reader;
let repo: { owner: string; repo: string };

beforeAll(async () => {
  world = await startWorld({
    anthropicApiKey: "",
    sandbox: worldSandboxMode,
    // The bundle the global setup built for this run: a world's own would be a second esbuild pass.
    bundle: sharedActionBundle(),
    transcripts: [asking("shout"), asking("whisper"), plain("after")],
  });
  repo = { owner: world.owner, repo: world.repo };
  human = world.as(HUMAN);
  read = reader(world, human);
  world.sim.store.repos.get(`${world.owner}/${world.repo}`)?.collaborators.set("rita", "read");
  world.sim.seed.installation(repo.owner, { webhooks: true });
  await world.settle();
}, 60_000);

afterAll(async () => {
  await world.close();
});

function runsOf(prefix: string) {
  const runs = world.sim.store.repos.get(`${world.owner}/${world.repo}`)?.runs ?? [];
  return runs.filter((run) => run.displayTitle.startsWith(prefix));
}

/** The task prompts the model was sent for `name`, one per attempt. */
function taskPrompts(name: string): string[] {
  return (world.replay?.fake.requests ?? [])
    .map((request) => (request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [])
    .filter((messages) => messages.length === 1)
    .map((messages) => JSON.stringify(messages[0]?.content))
    .filter((text) => new RegExp(`## Task: #\\d+ Add ${name}\\b`).test(text));
}

async function comment(login: string, issue: number, body: string): Promise<void> {
  await world.as(login).rest.issues.createComment({ ...repo, issue_number: issue, body });
  await world.settle();
}

describe("ask and wait", () => {
  it("asks, waits through a reader's reply and the stale sweep, and continues on a writer's answer", async () => {
    const { data } = await human.rest.issues.create({
      ...repo,
      title: "Add shout",
      labels: ["locus:queued"],
    });
    const issue = data.number;
    await world.settle();

    expect(runsOf(`Locus issue #${issue} `).map((run) => run.conclusion)).toEqual(["success"]);
    expect((await read.issue(issue)).labels).toContain("locus:waiting");
    expect(await read.pullForBranch(`locus/issue-${issue}`)).toBeUndefined();
    const botComments = (await read.comments(issue)).filter((c) => c.author === world.sim.app.botLogin);
    const question = botComments.find((c) => c.body.includes("<!-- locus:question -->"));
    expect(question?.body).toContain(`@${HUMAN} Locus has 2 questions`);
    for (const text of QUESTIONS) expect(question?.body).toContain(text);
    expect(botComments.filter((c) => c.body.includes("<!-- locus:question -->"))).toHaveLength(1);
    const status = botComments.find((c) => c.body.startsWith("<!-- locus:status -->"));
    expect(status?.body).toContain("Waiting for an answer");
    expect(status?.body).toContain(QUESTIONS[0]);
    expect(await read.branchExists(`locus/wip/issue-${issue}`)).toBe(true);

    // A reader's reply is no answer; the sweep never retries a waiting task.
    await comment("rita", issue, "Exclamation mark, all caps.");
    await human.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
      ...repo,
      workflow_id: "locus-stale.yml",
      ref: "main",
    });
    await world.settle();
    expect(runsOf(`Locus issue #${issue} `)).toHaveLength(1);
    expect((await read.issue(issue)).labels).toContain("locus:waiting");

    await comment(HUMAN, issue, "Yes to the exclamation mark, and upper-case every letter.");

    expect(runsOf(`Locus issue #${issue} `).map((run) => run.conclusion)).toEqual(["success", "success"]);
    expect((await read.issue(issue)).labels).toContain("locus:in-review");
    const pull = await read.pullForBranch(`locus/issue-${issue}`);
    expect(pull?.body).toContain(`Closes #${issue}`);
    const [, resumed] = taskPrompts("shout");
    const answered = resumed?.split("## Your questions and the answer")[1] ?? "";
    expect(answered).toContain(QUESTIONS[1]);
    expect(answered).toContain("upper-case every letter");
    expect(answered).not.toContain("Exclamation mark, all caps.");
    // Continued from the wip: the draft the first attempt wrote is in the worktree it read.
    expect(resumed).toContain("locus/wip/issue-");
    expect(await read.branchExists(`locus/wip/issue-${issue}`)).toBe(false);
  }, 120_000);

  it("a waiting task stops its sprint; `/locus answer` resumes the sprint from it", async () => {
    const { data: milestone } = await human.rest.issues.createMilestone({ ...repo, title: "Voices" });
    const numbers: number[] = [];
    for (const [title, order] of [
      ["Add whisper", "order:1"],
      ["Add after", "order:2"],
    ] as const) {
      const { data } = await human.rest.issues.create({
        ...repo,
        title,
        milestone: milestone.number,
        labels: [order],
      });
      numbers.push(data.number);
    }
    const [whisper = 0, after = 0] = numbers;
    await world.settle();
    await human.rest.issues.updateMilestone({
      ...repo,
      milestone_number: milestone.number,
      description: "locus: active",
    });
    await world.settle();

    expect((await read.issue(whisper)).labels).toContain("locus:waiting");
    expect((await read.issue(after)).labels).toContain("locus:queued");
    expect(await read.pullForBranch(`locus/issue-${after}`)).toBeUndefined();

    await comment(HUMAN, whisper, "/locus answer Only the first letter; no exclamation mark.");

    expect((await read.issue(whisper)).labels).toContain("locus:in-review");
    expect((await read.issue(after)).labels).toContain("locus:in-review");
    expect((await read.pullForBranch(`locus/issue-${after}`))?.base).toBe(`locus/issue-${whisper}`);
    expect(taskPrompts("whisper")[1]).toContain("Only the first letter; no exclamation mark.");
    expect(runsOf(`Locus sprint #${milestone.number} `)).toHaveLength(2);
  }, 120_000);
});
