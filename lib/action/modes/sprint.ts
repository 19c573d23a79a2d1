/**
 * Mode `sprint`: a milestone's issues in `order:N` order, in one worktree,
 * each task on `locus/issue-<N>` started from the previous task's branch and
 * its PR based on it, so every PR shows only its own diff. Completed tasks
 * are skipped, failed and interrupted ones retried (from their checkpoint),
 * and the run stops at the first failure (config `sprint.stopOnFailure`) and
 * at a task waiting for an answer to its question (always: later tasks build
 * on it); the next run resumes there. `locus/sprint-<slug>` follows the newest completed
 * task. Labels are the truth; the tracking issue mirrors them.
 */
import { join } from "node:path";
import type { GitClient } from "../../git/git-client.ts";
import type { MomentWrite } from "../../github/index.ts";
import { isCompleted, statusOf } from "../../status-machine/status-machine.ts";
import { issueBranch, sprintBranch } from "../../naming/branches.ts";
import type { SprintContext } from "../../prompt/task-prompt.ts";
import { sortByOrder } from "../../sprint/order.ts";
import { continuesAfter, planSprint } from "../../sprint/plan.ts";
import type { ActionContext } from "../../task/context.ts";
import { runTask } from "../../task/run-task.ts";
import { firstReadOptions, runFacts } from "../../task/task-read-context.ts";
import {
  createTrackingIssue,
  trackingIssueAmong,
  isTrackingIssue,
  trackingTitle,
  type SprintRunState,
  type TrackedTask,
} from "../../sprint/sprint-tracking.ts";
import { renderTrackingDashboard } from "../../render/tracking-dashboard.ts";
import type { ModeResult, TaskReport } from "../../task/task-report.ts";
import { createWriters, type Writers } from "../../trust/writers.ts";
import { milestonedBy, notAMemberBecause } from "../../sprint/milestoned-by.ts";
import type { IssueTimeline, TaskIssue } from "../../github/index.ts";
import { selfLogins } from "../../trust/self-logins.ts";

interface Parent {
  readonly branch: string;
  readonly ref: string;
  readonly pr?: number;
}

/** The agent's summary from a Locus PR body, for later tasks' prompts. */
function summaryOf(body: string | undefined): string {
  const match = body ? /## Summary\n\n([\s\S]*?)(?:\n\n## |$)/.exec(body) : null;
  return match?.[1]?.trim() ?? "";
}

function conflictMessage(issue: number, parent: string, files: readonly string[]): string {
  return [
    `Rebasing #${issue} onto \`${parent}\` conflicts in: ${files.map((file) => `\`${file}\``).join(", ") || "(unknown files)"}.`,
    `Resolve it by hand: \`git fetch origin && git checkout ${issueBranch(issue)} && git rebase origin/${parent}\`,`,
    "fix the files, `git rebase --continue`, push the branch, then comment `/locus run` on the issue.",
  ].join("\n");
}

function waitingMessage(issue: number): string {
  return `#${issue} is waiting for an answer to its question. Answer on the issue and the sprint resumes there.`;
}

export async function runSprintMode(ctx: ActionContext, milestoneNumber: number): Promise<ModeResult> {
  const { gateway, git } = ctx;
  // One read holds the milestone, every issue with its comments, the default branch, the
  // open managed issues (the tracking issue), the run's creation time and the day's spend.
  const read = await gateway.readSprint(milestoneNumber, firstReadOptions(ctx));
  const milestone = read.milestone;
  if (!milestone || milestone.state !== "open") {
    return { tasks: [], note: `Milestone ${milestoneNumber} is not an open milestone; nothing to do.` };
  }
  const { triggeredAt, baseBranch: base, budget } = runFacts(ctx, read);
  const title = trackingTitle(milestone);
  const tracking = trackingIssueAmong(read.managedOpen, title, selfLogins(ctx));
  const writers = createWriters(ctx);
  const { members: issues, leftOut } = await sprintMembers(
    read.issues.filter((issue) => !isTrackingIssue(issue, title)),
    writers,
  );
  for (const why of leftOut) ctx.log.warn(why);
  const noted = (message: string | undefined): string | undefined =>
    leftOut.length === 0 ? message : [...leftOut.map((why) => `${why}.`), message].filter(Boolean).join("\n");
  const plan = planSprint(issues);
  const { ordered: sequence, unordered } = sortByOrder(
    issues.filter((issue) => issue.state === "open" || isCompleted(statusOf(issue.labels))),
  );
  const trackedEntry = (issue: (typeof issues)[number], order: number | undefined): [number, TrackedTask] => [
    issue.number,
    { number: issue.number, title: issue.title, labels: issue.labels, order },
  ];
  const tracked = new Map<number, TrackedTask>([
    ...sequence.map(({ issue, order }) => trackedEntry(issue, order)),
    ...unordered.map((issue) => trackedEntry(issue, undefined)),
  ]);
  // The first state shown creates the tracking issue when there is none; a state already shown is not written again.
  const dashboardBody = (run: SprintRunState): string =>
    renderTrackingDashboard(milestone, [...tracked.values()], {
      ...run,
      ...(ctx.run.url ? { runUrl: ctx.run.url } : {}),
    });
  const show = async (run: SprintRunState): Promise<void> => {
    const body = dashboardBody(run);
    if (body === tracking.shown) return;
    if (tracking.number === undefined) {
      const created = await createTrackingIssue(gateway, title, body);
      tracking.number = created.number;
      tracking.nodeId = created.nodeId;
    } else await gateway.updateIssue(tracking.number, { body });
    tracking.shown = body;
  };
  // A state to show at a task's start, sent with the task's own start writes (one request). Its
  // fate is the task's, so the next state is always written.
  const showWithTask = async (run: SprintRunState): Promise<MomentWrite[]> => {
    if (tracking.number === undefined) {
      await show(run);
      return [];
    }
    const body = dashboardBody(run);
    if (body === tracking.shown) return [];
    tracking.shown = undefined;
    // The dashboard mirrors the labels: a failed edit must not keep the task from starting.
    return [{ kind: "body", number: tracking.number, nodeId: tracking.nodeId, body, bestEffort: true }];
  };

  if (plan.unordered.length > 0) {
    const message = `Issues without an order label: ${plan.unordered.map((n) => `#${n}`).join(", ")}. Give each an \`order:N\` label, then run the sprint again.`;
    await show({ state: "stopped", message });
    return { tasks: [], note: noted(message) ?? message };
  }
  if (plan.idle) {
    await show({ state: "finished", message: plan.idle });
    return { tasks: [], note: noted(plan.idle) ?? plan.idle };
  }

  const pointer = sprintBranch(milestone);
  const remote = await git.remoteBranches(["locus/issue-*", pointer]);
  await git.fetchBranches([base, ...[...remote.keys()].filter((branch) => branch !== pointer)]);
  let pointerSha = remote.get(pointer) ?? "";
  const baseRef = git.remoteRef(base);
  const worktreePath = join(ctx.run.worktreeRoot, "locus-worktrees", `sprint-${milestone.number}`);
  let worktree: GitClient | undefined;
  const checkout = async (branch: string, ref: string): Promise<GitClient> => {
    if (worktree) await worktree.checkoutBranch(branch, ref);
    else worktree = await git.worktreeAdd(worktreePath, branch, ref);
    return worktree;
  };

  let parent: Parent = { branch: base, ref: baseRef };
  const earlier: Array<SprintContext["earlierTasks"][number]> = [];
  const reports: TaskReport[] = [];
  const planned = new Map(plan.tasks.map((task) => [task.issue.number, task]));
  let stop: SprintRunState | undefined;

  for (const { issue } of sequence) {
    const branch = issueBranch(issue.number);
    if (isCompleted(statusOf(issue.labels))) {
      // A merged task whose branch was deleted is already in the base branch.
      if (!remote.has(branch)) continue;
      const pr = await gateway.findPullRequestByHead(branch, { state: "all" });
      parent = { branch, ref: git.remoteRef(branch), ...(pr ? { pr: pr.number } : {}) };
      if (pr) tracked.set(issue.number, { ...(tracked.get(issue.number) as TrackedTask), pr: pr.number });
      earlier.push({ number: issue.number, title: issue.title, summary: summaryOf(pr?.body) });
      continue;
    }
    const task = planned.get(issue.number);
    if (!task) continue;
    if (statusOf(issue.labels) === "waiting") {
      stop = { state: "stopped", message: waitingMessage(issue.number) };
      break;
    }
    if (ctx.signal.aborted) {
      stop = { state: "stopped", message: "The run was cancelled; the next run resumes here." };
      break;
    }
    const dashboard = await showWithTask({
      state: "running",
      message: `Working on #${issue.number} (task ${task.position} of ${plan.total}).`,
    });
    const outcome = await runTask(ctx, {
      alongsideStart: dashboard,
      issue,
      prBase: parent.branch,
      parentRef: parent.ref,
      sprint: {
        name: milestone.title,
        description: milestone.description,
        position: task.position,
        total: plan.total,
        earlierTasks: [...earlier],
        cumulativeDiff: await git.diff(baseRef, parent.ref),
      },
      ...(parent.pr === undefined ? {} : { stackedOn: parent.pr }),
      checkout,
      rebaseOntoParent: ctx.config.sprint.rebaseBeforeTask,
      triggeredAt,
      writers,
      ...(budget ? { budget } : {}),
    });
    const report = outcome.report;
    reports.push(report);
    tracked.set(issue.number, {
      ...(tracked.get(issue.number) as TrackedTask),
      labels: outcome.labels,
      ...(report.pr ? { pr: report.pr.number } : {}),
      attempts: outcome.attempts,
      durationMs: report.durationMs,
      costUsd: report.costUsd,
    });
    if (report.status === "succeeded" && report.pr && outcome.worktree) {
      const head = (await outcome.worktree.revParse("HEAD")) ?? "";
      const moved = await outcome.worktree.push(pointer, { expect: pointerSha });
      if (moved.ok) pointerSha = head;
      else ctx.log.warn(`Could not move ${pointer}: ${moved.message}`);
      parent = { branch, ref: head, pr: report.pr.number };
      earlier.push({ number: issue.number, title: issue.title, summary: report.summary ?? "" });
      continue;
    }
    if (report.status === "waiting") {
      stop = { state: "stopped", message: waitingMessage(issue.number) };
      break;
    }
    if (outcome.conflicts) {
      stop = { state: "stopped", message: conflictMessage(issue.number, parent.branch, outcome.conflicts) };
      break;
    }
    if (report.status === "skipped") {
      stop = {
        state: "stopped",
        message: `#${issue.number} was not started: ${report.reason ?? "unknown"}.`,
      };
      break;
    }
    if (!continuesAfter("failed", ctx.config.sprint.stopOnFailure)) {
      stop = {
        state: "stopped",
        message: `#${issue.number} failed: ${report.reason ?? "unknown"}. The next sprint run retries it (comment \`/locus run\` on it).`,
      };
      break;
    }
  }
  await show(stop ?? { state: "finished", message: "Every task of this run is delivered." });
  if (!stop && worktree) await git.worktreeRemove(worktreePath);
  const note = noted(stop?.message);
  return { tasks: reports, ...(note ? { note } : {}) };
}

/**
 * The milestone's issues that are sprint tasks: those someone with write access
 * (or Locus) put in the milestone. Completed tasks too: they run no more, but
 * later tasks build on their branches, so a triage member who moves a Locus
 * issue marked `in-review` into the milestone must not splice its branch into
 * the stack.
 */
async function sprintMembers(
  issues: readonly TaskIssue[],
  writers: Writers,
): Promise<{ members: TaskIssue[]; leftOut: string[] }> {
  const tasks = issues.filter((issue) => issue.state === "open" || isCompleted(statusOf(issue.labels)));
  const by = new Map(tasks.map((issue) => [issue.number, milestonedBy(issue.timeline ?? NO_TIMELINE)]));
  const trust = await writers.trustFor(
    [...by.values()].flatMap((who) => (who.kind === "actor" ? [who.login] : [])),
  );
  const leftOut = new Map<number, string>();
  for (const [number, who] of by) {
    const why = notAMemberBecause(number, who, trust.isWriter);
    if (why) leftOut.set(number, why);
  }
  return { members: issues.filter((issue) => !leftOut.has(issue.number)), leftOut: [...leftOut.values()] };
}

const NO_TIMELINE: IssueTimeline = { events: [], truncated: false };
