/**
 * One attack, moved to every place a later session or Locus's own git can meet what the agent left:
 * a failed task's checkpoint and its retry (also one whose checkpoint conflicts with a moved base),
 * an iterate round on the task's PR, a rebase whose conflicts the agent resolves, and a sprint's
 * second task. Each variant plays the attack's two
 * turns (`first` in the earlier agent session, `later` in the one after), runs the bundled Action
 * with every host process recorded and GITHUB_ENV an empty file, checks that the work went where it
 * should (status, branch, labels, a failure reported), and hands back each run for the attack's own
 * checks (recorded-run.ts). Used by shared-home-attacks.test.ts, which plays host-boundary.test.ts's
 * attack in the same runs.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import type { FakeBlock, RecordedRequest } from "../../sandbox/anthropic-fake/types.ts";
import type { Harness } from "./harness.ts";
import { outsideTheRule } from "./host-processes.ts";
import { agentSaw, recordedRun, type VariantRun, type VariantWorld } from "./recorded-run.ts";

/** The attacker's tool calls: in the earlier agent session, and in the one after it. */
export interface AttackTurns {
  readonly first: readonly FakeBlock[];
  readonly later: readonly FakeBlock[];
}

export interface VariantOutcome {
  readonly runs: readonly VariantRun[];
  /** The files of every branch the variant's work was pushed to, as each was pushed (a wip branch goes once used). */
  readonly pushed: readonly string[];
  /** The branch the later session's work went to. */
  readonly last: string;
}

export interface AttackVariant {
  readonly name: string;
  play(world: VariantWorld, attack: AttackTurns): Promise<VariantOutcome>;
}

const finish = (summary: string) => reply(call("finish", { summary }));

/** Every file on a branch of the remote. */
export async function filesOn(h: Harness, branch: string): Promise<string[]> {
  return (await h.git(["ls-tree", "-r", "--name-only", `origin/${branch}`])).split("\n").filter(Boolean);
}

export async function labelsOf(h: Harness, issue: number): Promise<readonly string[]> {
  return (await h.api.getIssue(issue))?.labels ?? [];
}

/** A task that ends well: status, exit, the issue in review. */
export async function expectDelivered(h: Harness, run: VariantRun, issue: number): Promise<void> {
  expect(run.run.outputs["status"]).toBe("succeeded");
  expect(run.run.code).toBe(0);
  const labels = await labelsOf(h, issue);
  expect(labels).toContain("locus:in-review");
  expect(labels).not.toContain("locus:in-progress");
}

/** The first run fails after the attack (the model API refuses), saving a checkpoint; re-queued, the retry continues it. */
const retry: AttackVariant = {
  name: "a failed task's checkpoint and its retry",
  async play(world, attack) {
    const { h } = world;
    const issue = (await h.api.createIssue({ title: "Retry me", body: "x", labels: ["locus:queued"] }))
      .number;
    h.fake.setScript([reply(call("write_file", { path: "saved.txt", content: "saved\n" }), ...attack.first)]);
    const failed = await recordedRun(world, { mode: "issue", issue: String(issue) });

    // Reported as a failure, through the failure path: the step, the comment, the label, the checkpoint.
    expect(failed.run.outputs["status"]).toBe("failed");
    // A task that failed is no fault of the Action's: the step fails (exit 1) only on an error nothing caught.
    expect(failed.run.code).toBe(0);
    expect(await labelsOf(h, issue)).toContain("locus:failed");
    const comments = (await h.api.getIssue(issue))?.comments ?? [];
    expect(comments.some((c) => c.body.startsWith("**Locus could not finish this task:**"))).toBe(true);
    expect(await h.show(`locus/wip/issue-${issue}`, "saved.txt")).toBe("saved\n");
    const saved = await filesOn(h, `locus/wip/issue-${issue}`);

    await h.api.setLabels(issue, ["locus:queued"]);
    h.fake.setScript([
      reply(call("write_file", { path: "done.txt", content: "done\n" }), ...attack.later),
      finish("Finished."),
    ]);
    const retried = await recordedRun(world, { mode: "issue", issue: String(issue) });

    await expectDelivered(h, retried, issue);
    const branch = `locus/issue-${issue}`;
    expect(await h.show(branch, "saved.txt")).toBe("saved\n");
    expect(await h.show(branch, "done.txt")).toBe("done\n");
    return { runs: [failed, retried], pushed: [...saved, ...(await filesOn(h, branch))], last: branch };
  },
};

/**
 * As `retry`, but main changed the checkpoint's file meanwhile: the retry first replays the
 * checkpoint onto the new base, the agent resolving the conflict (the attack's `first` again), then
 * the task goes on in the same run (`later`).
 */
const retryAfterConflict: AttackVariant = {
  name: "a retry whose checkpoint conflicts with the moved base",
  async play(world, attack) {
    const { h } = world;
    const issue = (await h.api.createIssue({ title: "Replay me", body: "x", labels: ["locus:queued"] }))
      .number;
    h.fake.setScript([reply(call("write_file", { path: "motto.txt", content: "mine\n" }), ...attack.first)]);
    const failed = await recordedRun(world, { mode: "issue", issue: String(issue) });
    expect(failed.run.outputs["status"]).toBe("failed");
    expect(failed.run.code).toBe(0);
    const saved = await filesOn(h, `locus/wip/issue-${issue}`);
    expect(saved).toContain("motto.txt");

    await h.git(["checkout", "--quiet", "-B", "main", "origin/main"]);
    await writeFile(join(h.scratch, "motto.txt"), "theirs\n");
    await h.git(["add", "motto.txt"]);
    await h.git(["commit", "--quiet", "-m", "someone moves main"]);
    await h.git(["push", "--quiet", "origin", "main:main"]);
    await h.api.setLabels(issue, ["locus:queued"]);
    h.fake.setScript([
      reply(call("write_file", { path: "motto.txt", content: "mine and theirs\n" }), ...attack.first),
      finish("Kept both mottos."),
      reply(call("write_file", { path: "done.txt", content: "done\n" }), ...attack.later),
      finish("Finished."),
    ]);
    const retried = await recordedRun(world, { mode: "issue", issue: String(issue) });

    await expectDelivered(h, retried, issue);
    const branch = `locus/issue-${issue}`;
    expect(await h.show(branch, "motto.txt")).toBe("mine and theirs\n");
    expect(await h.show(branch, "done.txt")).toBe("done\n");
    expect(agentSaw(retried, "stopped on a conflict")).toBe(true);
    return { runs: [failed, retried], pushed: [...saved, ...(await filesOn(h, branch))], last: branch };
  },
};

/** The task delivers a PR; a reviewer asks for changes, and the iterate round addresses them. */
const iterate: AttackVariant = {
  name: "an iterate round on the task's PR",
  async play(world, attack) {
    const { h } = world;
    const issue = (await h.api.createIssue({ title: "Iterate me", body: "x", labels: ["locus:queued"] }))
      .number;
    h.fake.setScript([
      reply(call("write_file", { path: "first.txt", content: "1\n" }), ...attack.first),
      finish("First round."),
    ]);
    const delivered = await recordedRun(world, { mode: "issue", issue: String(issue) });
    await expectDelivered(h, delivered, issue);
    const pr = Number(delivered.run.outputs["pr-number"]);
    h.repo.collaborator("rev", "write");
    await h.as("rev").createReview(pr, { event: "REQUEST_CHANGES", body: "Add a second file." });
    h.fake.setScript([
      reply(call("write_file", { path: "second.txt", content: "2\n" }), ...attack.later),
      finish("Added the second file."),
    ]);
    const round = await recordedRun(world, { mode: "iterate", pr: String(pr) });

    await expectDelivered(h, round, issue);
    const branch = `locus/issue-${issue}`;
    expect(await h.show(branch, "second.txt")).toBe("2\n");
    return { runs: [delivered, round], pushed: await filesOn(h, branch), last: branch };
  },
};

/**
 * A Locus PR of two commits (`greeting.txt`, `farewell.txt`) on `locus/issue-<N>`, and main since
 * changed both files: a rebase stops twice, once per commit.
 */
export async function conflictingLocusPullRequest(
  h: Harness,
  title: string,
): Promise<{ issue: number; branch: string; pr: { number: number } }> {
  const issue = (await h.api.createIssue({ title, labels: ["locus:in-review", "agent:managed"] })).number;
  const branch = `locus/issue-${issue}`;
  const commit = async (path: string, content: string, message: string) => {
    await writeFile(join(h.scratch, path), content);
    await h.git(["add", path]);
    await h.git(["commit", "--quiet", "-m", message]);
  };
  await h.git(["checkout", "--quiet", "-B", branch, "origin/main"]);
  await commit("greeting.txt", "welcome\n", `feat: greet (#${issue})`);
  await commit("farewell.txt", "so long\n", `feat: say farewell (#${issue})`);
  await h.git(["push", "--quiet", "--force", "origin", `${branch}:${branch}`]);
  const pr = await h.api.createPullRequest({ title, head: branch, base: "main", body: `Closes #${issue}` });
  await h.api.setLabels(pr.number, ["agent:managed"]);
  await h.git(["checkout", "--quiet", "-B", "main", "origin/main"]);
  await commit("greeting.txt", "hello\n", "Say hello");
  await commit("farewell.txt", "goodbye\n", "Say goodbye");
  await h.git(["push", "--quiet", "origin", "main:main"]);
  return { issue, branch, pr };
}

/**
 * A Locus PR of two commits, each conflicting with what main did since: the rebase stops twice,
 * and each stop is an agent session of its own (the attack's `first` in the first, `later` in the second).
 */
const rebase: AttackVariant = {
  name: "a rebase whose conflicts the agent resolves",
  async play(world, attack) {
    const { h } = world;
    const { issue, branch, pr } = await conflictingLocusPullRequest(h, "Restack me");
    h.fake.setScript([
      reply(call("write_file", { path: "greeting.txt", content: "welcome and hello\n" }), ...attack.first),
      finish("Kept both greetings."),
      reply(call("write_file", { path: "farewell.txt", content: "so long and goodbye\n" }), ...attack.later),
      finish("Kept both farewells."),
    ]);
    const rebased = await recordedRun(world, { mode: "rebase", pr: String(pr.number) });

    await expectDelivered(h, rebased, issue);
    expect(await h.show(branch, "greeting.txt")).toBe("welcome and hello\n");
    expect(await h.show(branch, "farewell.txt")).toBe("so long and goodbye\n");
    const parent = (await h.git(["rev-parse", `origin/${branch}~2`])).trim();
    expect(parent).toBe((await h.git(["rev-parse", "origin/main"])).trim());
    const said = (await h.api.getIssue(pr.number))?.comments ?? [];
    expect(said.some((c) => c.body.startsWith("Locus rebased this branch"))).toBe(true);
    return { runs: [rebased], pushed: await filesOn(h, branch), last: branch };
  },
};

let sprints = 0;

/** A sprint of two tasks: the first plants, the second works on top of it. */
const sprint: AttackVariant = {
  name: "a sprint's second task",
  async play(world, attack) {
    const { h } = world;
    const milestone = await h.api.createMilestone({ title: `Sprint ${(sprints += 1)}` });
    const [one, two] = [
      await h.api.createIssue({
        title: "Task one",
        labels: ["locus:queued", "order:1"],
        milestone: milestone.number,
      }),
      await h.api.createIssue({
        title: "Task two",
        labels: ["locus:queued", "order:2"],
        milestone: milestone.number,
      }),
    ];
    const turn = (request: RecordedRequest) => {
      const text = JSON.stringify(request.body);
      if (text.includes("tool_result")) return finish("Done.");
      return /## Task: #\d+ Task one/.test(text)
        ? reply(call("write_file", { path: "one.txt", content: "1\n" }), ...attack.first)
        : reply(call("write_file", { path: "two.txt", content: "2\n" }), ...attack.later);
    };
    h.fake.setScript([turn, turn, turn, turn]);
    const sprinted = await recordedRun(world, { mode: "sprint", milestone: String(milestone.number) });

    for (const issue of [one?.number ?? 0, two?.number ?? 0]) await expectDelivered(h, sprinted, issue);
    const branches = [`locus/issue-${one?.number}`, `locus/issue-${two?.number}`];
    expect(await h.show(branches[1] ?? "", "two.txt")).toBe("2\n");
    const pushed = [...(await filesOn(h, branches[0] ?? "")), ...(await filesOn(h, branches[1] ?? ""))];
    return { runs: [sprinted], pushed, last: branches[1] ?? "" };
  },
};

export const ATTACK_VARIANTS: readonly AttackVariant[] = [retry, retryAfterConflict, iterate, rebase, sprint];

/** What every run of a variant must show: no host process off the list, GITHUB_ENV untouched. */
export function expectHostUntouched(outcome: VariantOutcome): void {
  for (const run of outcome.runs) {
    expect(outsideTheRule(run.started, run.runnerTemp)).toEqual([]);
    expect(run.githubEnv).toBe("");
  }
}
