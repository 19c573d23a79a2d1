/**
 * A hand-made workflow_dispatch whose inputs name a target no mode may work on (a closed issue, a
 * pull request's number as an issue, a PR Locus did not open, a number or milestone that names
 * nothing), by a person with write access, run in process in a task world: the inputs parsed as
 * the Action parses them, the requester checked as action/run.ts checks it first, then the mode.
 * Each is refused before any checkout, model call or push. Forged requesters (triage, read, no
 * access), which the Action refuses from its environment before any mode runs, and the secrets a
 * malicious model reaches for, run through the bundled Action: test/reliability/action-hostile.test.ts.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modeRequest, parseInputs, type InputName } from "../../../action/inputs.ts";
import { runMode } from "../../../lib/action/run-mode.ts";
import { refuseRequester } from "../../../lib/trust/requester.ts";
import { startTaskWorld, WORLD_SECRETS, type TaskWorld } from "../../fakes/task-world.ts";

let w: TaskWorld;

beforeAll(async () => {
  w = await startTaskWorld();
  w.github.store.permissions.set("wendy", "write");
}, 60_000);

afterAll(async () => {
  await w.close();
});

/** The worktrees a run made under its runner temp folder: a refused run must have made none. */
async function worktreesMade(worktreeRoot: string): Promise<number> {
  return (await readdir(join(worktreeRoot, "locus-worktrees")).catch(() => [])).length;
}

async function remoteBranches(): Promise<string[]> {
  return (await w.git(["branch", "-r", "--format=%(refname:short)"])).trim().split("\n").sort();
}

let humans = 0;
/** A pull request a person opened from a branch of their own. */
async function humanPullRequest(): Promise<number> {
  const head = `human-${++humans}`;
  await w.git(["checkout", "--quiet", "-B", head, "origin/main"]);
  await w.git(["commit", "--quiet", "--allow-empty", "-m", "human work"]);
  await w.git(["push", "--quiet", "origin", head]);
  const sha = (await w.git(["rev-parse", `origin/${head}`])).trim();
  return w.github.seedIssue({
    title: "Mine",
    author: "wendy",
    pull: {
      head: { ref: head, sha },
      base: { ref: "main" },
      ...{ merged: false, draft: false, diff: "", reviews: [], threads: [], fromFork: false },
    },
  }).number;
}

/** The Action's inputs as the runner hands them over, the forged ones over the workflow's defaults. */
function inputsOf(forged: Record<string, string>) {
  const defaults: Record<string, string> = {
    "github-token": WORLD_SECRETS.githubToken,
    "config-path": ".github/locus.yml",
  };
  const all = { ...defaults, ...forged };
  return parseInputs((name: InputName) => all[name] ?? "");
}

const cases: Array<[string, () => Promise<Record<string, string>>]> = [
  [
    "mode issue on a closed issue",
    async () => {
      const issue = await w.github.createIssue({ title: "Closed", body: "x", labels: ["locus:queued"] });
      await w.github.updateIssue(issue.number, { state: "closed" });
      return { mode: "issue", issue: String(issue.number) };
    },
  ],
  [
    "mode issue on a pull request number",
    async () => ({ mode: "issue", issue: String(await humanPullRequest()) }),
  ],
  [
    "mode iterate on a PR Locus did not open",
    async () => ({ mode: "iterate", pr: String(await humanPullRequest()) }),
  ],
  ["mode issue on a number that names nothing", () => Promise.resolve({ mode: "issue", issue: "424243" })],
  [
    "mode sprint on a milestone that does not exist",
    () => Promise.resolve({ mode: "sprint", milestone: "424242" }),
  ],
];

describe("a hand-made workflow_dispatch with forged inputs is refused before checkout or model call", () => {
  it.each(cases)("%s", { timeout: 60_000 }, async (_name, arrange) => {
    const inputs = inputsOf(await arrange());
    const modelCalls = w.anthropic.requests.length;
    const branches = await remoteBranches();
    const ctx = await w.context({ actor: "wendy" });

    // The requester has write access: what refuses the run is its target.
    expect(
      await refuseRequester(
        ctx.gateway,
        { actor: "wendy", dispatched: false },
        [w.github.store.self],
        ctx.config,
      ),
    ).toBeUndefined();
    const result = await runMode(ctx, modeRequest(inputs));

    expect(w.anthropic.requests.length).toBe(modelCalls);
    expect(await worktreesMade(ctx.run.worktreeRoot)).toBe(0);
    expect(await remoteBranches()).toEqual(branches);
    expect(result.tasks.flatMap((task) => (task.pr ? [task.pr.number] : []))).toEqual([]);
  });
});
