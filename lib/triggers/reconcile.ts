/**
 * GitHub never retries a failed delivery and a crash can drop work in flight,
 * so the app also repairs a repository on a timer: a standalone issue left
 * `queued` with no Locus run is dispatched again, so is the sprint of a
 * milestone issue left `queued` when no sprint run started after it was queued
 * and nothing in the sprint stops it (a failure, a question, an issue without
 * an order), and an issue left `in-progress` after its run failed is marked
 * `failed`. Each repair is a
 * status transition or a dispatch keyed by its own delivery id, so running
 * the reconciler twice repairs nothing twice.
 */
import { parseRunName } from "../dispatch/dispatch-inputs.ts";
import type { WorkflowRun } from "../github/index.ts";
import { statusLabel } from "../labels/schema.ts";
import type { AppContext } from "../app/app-context.ts";
import { dispatchOnce } from "../app/dispatch-once.ts";
import { statusUpdatedAt } from "../status/status-store.ts";
import { sprintBlockedBy } from "../sprint/sprint-blocked.ts";
import { onWorkflowRunCompleted } from "./workflow-run-events.ts";

export interface ReconcileReport {
  readonly redispatched: number[];
  readonly markedFailed: number[];
}

/** The status comment is written just after the dispatch: a run created this long before it still took it. */
const DISPATCH_SLACK_MS = 60_000;

export async function reconcileRepository(ctx: AppContext, graceMinutes: number): Promise<ReconcileReport> {
  const [queued, runs] = await Promise.all([
    ctx.gateway.listIssues({ state: "open", labels: [statusLabel("queued")] }),
    ctx.gateway.listWorkflowRuns(ctx.config.workflow),
  ]);
  const latestRunOf = latestRunByTarget(runs);
  const now = ctx.now().getTime();
  const redispatched: number[] = [];
  for (const issue of queued) {
    if (issue.isPullRequest || issue.milestone !== null || latestRunOf.has(`issue:${issue.number}`)) continue;
    // Without a status comment the app may still be dispatching it: the grace
    // runs from the issue's last change (its queued label) instead.
    if (now - Date.parse(issue.updatedAt) < graceMinutes * 60_000) continue;
    const statusAt = await statusUpdatedAt(ctx.gateway, issue.number);
    if (statusAt && now - Date.parse(statusAt) < graceMinutes * 60_000) continue;
    const delivery = `reconcile-${Math.floor(now / 60_000)}-${issue.number}`;
    const outcome = await dispatchOnce(
      { ...ctx, delivery },
      { mode: "issue", issues: [issue.number] },
      issue.number,
      "Queued again: no run had picked it up.",
    );
    if (outcome === "dispatched") redispatched.push(issue.number);
  }
  const sprints = new Set<number>();
  for (const issue of queued) {
    const milestone = issue.milestone;
    if (issue.isPullRequest || milestone === null || sprints.has(milestone)) continue;
    const latest = latestRunOf.get(`sprint:${milestone}`);
    if (latest && latest.status !== "completed") continue;
    if (now - Date.parse(issue.updatedAt) < graceMinutes * 60_000) continue;
    const statusAt = await statusUpdatedAt(ctx.gateway, issue.number);
    if (statusAt && now - Date.parse(statusAt) < graceMinutes * 60_000) continue;
    const queuedAt = Date.parse(statusAt ?? issue.updatedAt) - DISPATCH_SLACK_MS;
    if (latest && Date.parse(latest.createdAt) >= queuedAt) continue;
    if (sprintBlockedBy((await ctx.gateway.listMilestoneIssues(milestone)) ?? [])) continue;
    sprints.add(milestone);
    const outcome = await dispatchOnce(
      { ...ctx, delivery: `reconcile-${Math.floor(now / 60_000)}-${issue.number}` },
      { mode: "sprint", milestone },
      issue.number,
      "Queued again: no sprint run had picked it up.",
    );
    if (outcome === "dispatched") redispatched.push(issue.number);
  }
  const markedFailed: number[] = [];
  for (const run of latestRunOf.values()) {
    if (run.status === "completed") markedFailed.push(...(await onWorkflowRunCompleted(ctx, run, runs)));
  }
  return { redispatched, markedFailed };
}

/** The newest run per `mode:target`, from the newest-first list GitHub returns. */
function latestRunByTarget(runs: readonly WorkflowRun[]): Map<string, WorkflowRun> {
  const latest = new Map<string, WorkflowRun>();
  for (const run of runs) {
    const parsed = parseRunName(run.displayTitle);
    if (!parsed || parsed.target === undefined) continue;
    const key = `${parsed.mode}:${parsed.target}`;
    if (!latest.has(key)) latest.set(key, run);
  }
  return latest;
}
