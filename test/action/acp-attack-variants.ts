/**
 * The ACP terminal attack moved where a later agent session, or Locus's own git, meets what an
 * earlier one left: a failed run's checkpoint and its retry, an iterate round on the task's PR, a
 * rebase whose two conflicts the agent resolves, and a sprint's second task. Unlike
 * attack-variants.ts, no model script steers the agent: the scripted ACP agent's
 * `terminal-attack-session` scenario plays the attack in every session, does the session's work
 * (a numbered file, any conflict resolved keeping both sides) and leaves its report, numbered, in
 * the worktree. The world's `configPath` names that agent; `crashing` names the one that dies
 * once its work is written. Each variant checks that the work went where it should (status,
 * branch, labels, a failure reported) and hands back every run, every pushed file and every
 * session's report for the attack's own checks.
 */
import { expect } from "vitest";
import {
  conflictingLocusPullRequest,
  expectDelivered,
  filesOn,
  labelsOf,
  type VariantOutcome,
} from "./attack-variants.ts";
import type { Harness } from "./harness.ts";
import { recordedRun, type VariantWorld } from "./recorded-run.ts";

/** What one terminal came to: its output, or the refusal the agent was given. */
export interface TerminalOutcome {
  readonly output?: string;
  readonly exitCode?: number | null;
  readonly refused?: string;
}

/** One session's report (terminal-attack.ts): each terminal's outcome, and the race's counts. */
export type AttackReport = Record<string, TerminalOutcome | number>;

export interface AcpVariantOutcome extends VariantOutcome {
  /** Every agent session's report, as delivered (each once, whichever branches carry it). */
  readonly reports: readonly AttackReport[];
}

export interface AcpWorld extends VariantWorld {
  /** The config whose agent crashes (exit 3) once its attack and work are written. */
  readonly crashing: string;
}

export interface AcpAttackVariant {
  readonly name: string;
  /** How many agent sessions the variant runs, each with the attack. */
  readonly sessions: number;
  play(world: AcpWorld): Promise<AcpVariantOutcome>;
}

interface ReportFile {
  readonly session: string;
  readonly terminals: AttackReport;
}

/** The session reports on these branches (a report carried by several is one). */
async function reportsOn(h: Harness, branches: readonly string[]): Promise<Map<string, AttackReport>> {
  const reports = new Map<string, AttackReport>();
  for (const branch of branches)
    for (const path of await filesOn(h, branch))
      if (/^terminal-attack-\d+\.json$/.test(path)) {
        const file = JSON.parse(await h.show(branch, path)) as ReportFile;
        reports.set(file.session, file.terminals);
      }
  return reports;
}

async function queuedIssue(h: Harness, title: string): Promise<number> {
  return (await h.api.createIssue({ title, body: "x", labels: ["locus:queued"] })).number;
}

/** The first run's agent crashes after the attack, its work saved; re-queued, the retry continues it. */
const retry: AcpAttackVariant = {
  name: "a failed run's checkpoint and its retry",
  sessions: 2,
  async play(world) {
    const { h } = world;
    const issue = await queuedIssue(h, "Retry me over ACP");
    const failed = await recordedRun(
      { ...world, configPath: world.crashing },
      { mode: "issue", issue: String(issue) },
    );

    expect(failed.run.outputs["status"]).toBe("failed");
    expect(failed.run.code).toBe(0);
    expect(await labelsOf(h, issue)).toContain("locus:failed");
    const comments = (await h.api.getIssue(issue))?.comments ?? [];
    const failure = comments.find((c) => c.body.startsWith("**Locus could not finish this task:**"));
    // It failed as planned: the agent's process died after the attack, not earlier on a refusal.
    expect(failure?.body).toContain("crashed after the attack (on purpose)");
    const wip = `locus/wip/issue-${issue}`;
    expect(await h.show(wip, "session-1.txt")).toBe("session 1\n");
    const saved = await filesOn(h, wip);
    // Read now: the wip branch goes once the retry has used it.
    const savedReports = await reportsOn(h, [wip]);

    await h.api.setLabels(issue, ["locus:queued"]);
    const retried = await recordedRun(world, { mode: "issue", issue: String(issue) });

    await expectDelivered(h, retried, issue);
    const branch = `locus/issue-${issue}`;
    expect(await h.show(branch, "session-1.txt")).toBe("session 1\n");
    expect(await h.show(branch, "session-2.txt")).toBe("session 2\n");
    const reports = new Map([...savedReports, ...(await reportsOn(h, [branch]))]);
    return {
      runs: [failed, retried],
      pushed: [...saved, ...(await filesOn(h, branch))],
      last: branch,
      reports: [...reports.values()],
    };
  },
};

/** The task delivers a PR; a reviewer asks for changes, and the iterate round's agent attacks again. */
const iterate: AcpAttackVariant = {
  name: "an iterate round on the task's PR",
  sessions: 2,
  async play(world) {
    const { h } = world;
    const issue = await queuedIssue(h, "Iterate me over ACP");
    const delivered = await recordedRun(world, { mode: "issue", issue: String(issue) });
    await expectDelivered(h, delivered, issue);
    const pr = Number(delivered.run.outputs["pr-number"]);
    h.repo.collaborator("rev", "write");
    await h.as("rev").createReview(pr, { event: "REQUEST_CHANGES", body: "One more session, please." });
    const round = await recordedRun(world, { mode: "iterate", pr: String(pr) });

    await expectDelivered(h, round, issue);
    const branch = `locus/issue-${issue}`;
    expect(await h.show(branch, "session-2.txt")).toBe("session 2\n");
    return {
      runs: [delivered, round],
      pushed: await filesOn(h, branch),
      last: branch,
      reports: [...(await reportsOn(h, [branch])).values()],
    };
  },
};

/** A Locus PR of two commits, each conflicting with main: each stop is an agent session of its own. */
const rebase: AcpAttackVariant = {
  name: "a rebase whose conflicts the agent resolves",
  sessions: 2,
  async play(world) {
    const { h } = world;
    const { issue, branch, pr } = await conflictingLocusPullRequest(h, "Restack me over ACP");
    const rebased = await recordedRun(world, { mode: "rebase", pr: String(pr.number) });

    await expectDelivered(h, rebased, issue);
    // Both sides kept, main's first: the agent resolved each stop.
    expect(await h.show(branch, "greeting.txt")).toBe("hello\nwelcome\n");
    expect(await h.show(branch, "farewell.txt")).toBe("goodbye\nso long\n");
    const parent = (await h.git(["rev-parse", `origin/${branch}~2`])).trim();
    expect(parent).toBe((await h.git(["rev-parse", "origin/main"])).trim());
    const said = (await h.api.getIssue(pr.number))?.comments ?? [];
    expect(said.some((c) => c.body.startsWith("Locus rebased this branch"))).toBe(true);
    return {
      runs: [rebased],
      pushed: await filesOn(h, branch),
      last: branch,
      reports: [...(await reportsOn(h, [branch])).values()],
    };
  },
};

let sprints = 0;

/** A sprint of two tasks, the agent attacking in each: the second works on top of the first. */
const sprint: AcpAttackVariant = {
  name: "a sprint's second task",
  sessions: 2,
  async play(world) {
    const { h } = world;
    const milestone = await h.api.createMilestone({ title: `ACP sprint ${(sprints += 1)}` });
    const tasks = [];
    for (const [order, title] of ["Task one", "Task two"].entries())
      tasks.push(
        await h.api.createIssue({
          title,
          labels: ["locus:queued", `order:${order + 1}`],
          milestone: milestone.number,
        }),
      );
    const sprinted = await recordedRun(world, { mode: "sprint", milestone: String(milestone.number) });

    for (const task of tasks) await expectDelivered(h, sprinted, task.number);
    const branches = tasks.map((task) => `locus/issue-${task.number}`);
    const second = branches[1] ?? "";
    expect((await filesOn(h, second)).filter((path) => path.startsWith("session-"))).not.toEqual([]);
    const pushed = (await Promise.all(branches.map((branch) => filesOn(h, branch)))).flat();
    return { runs: [sprinted], pushed, last: second, reports: [...(await reportsOn(h, branches)).values()] };
  },
};

export const ACP_ATTACK_VARIANTS: readonly AcpAttackVariant[] = [retry, iterate, rebase, sprint];
