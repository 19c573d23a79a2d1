/**
 * Mode `stale` (the scheduled sweep): issues `in-progress` with no live Locus
 * run whose status comment has not moved for `retry.staleAfterMinutes`, and
 * `failed` issues still under the retry budget, go back to `queued` and are
 * dispatched by this run itself — its own label change is a Locus event and
 * triggers nothing. Exhausted budgets get one final comment and stay failed.
 *
 * A status label alone proves nothing: anyone with triage access can add
 * `locus:failed` or `locus:in-progress` to any issue. The sweep acts only on
 * work Locus itself recorded: a failure needs an attempt in the status
 * comment Locus wrote, a stuck task that status comment (the gateway ignores
 * one written by anyone else).
 *
 * Issues already `queued` with no live run are dispatched when their dispatch
 * was lost (quiet past the threshold; for a sprint, only when nothing in it
 * stops it), or when the daily cost cap held them back on an earlier UTC day.
 * Waiting and cancelled tasks (no status) are never touched: people decide.
 */
import type { Issue, ListedIssue } from "../../github/index.ts";
import { sprintBlockedBy } from "../../sprint/sprint-blocked.ts";
import { utcDay } from "../../cost/daily-budget.ts";
import { statusLabel, type Status } from "../../labels/schema.ts";
import { dispatchInputs, parseRunName, type DispatchRequest } from "../../dispatch/dispatch-inputs.ts";
import { EMPTY_STATE, type StatusState } from "../../status/status-comment.ts";
import { advanceTask, applyEffects, statusTarget, type EffectTarget } from "../../lifecycle/apply-effects.ts";
import { step, taskState, type Step } from "../../lifecycle/lifecycle.ts";
import type { TaskEvent } from "../../lifecycle/task-events.ts";
import type { ActionContext } from "../../task/context.ts";
import { readStatusRecord } from "../../status/status-store.ts";
import { reportWithoutRun, type ModeResult, type TaskReport } from "../../task/task-report.ts";
import { markerKey } from "../../markers.ts";

function report(issue: Issue, status: TaskReport["status"], reason: string): TaskReport {
  return reportWithoutRun({ issue: issue.number, title: issue.title }, status, reason);
}

async function liveTargets(ctx: ActionContext): Promise<Set<string>> {
  const runs = (
    await Promise.all(
      (["queued", "in_progress", "waiting", "pending"] as const).map((status) =>
        ctx.gateway.listWorkflowRuns(ctx.config.workflow, { status }),
      ),
    )
  ).flat();
  const targets = new Set<string>();
  for (const run of runs) {
    const parsed = parseRunName(run.displayTitle);
    if (parsed?.target !== undefined) targets.add(`${parsed.mode}:${parsed.target}`);
  }
  return targets;
}

export async function runStaleMode(ctx: ActionContext): Promise<ModeResult> {
  const { gateway, config } = ctx;
  const now = ctx.clock.now().getTime();
  const live = await liveTargets(ctx);
  const defaultBranch = await gateway.getDefaultBranch();
  const dispatchedSprints = new Set<number>();
  const reports: TaskReport[] = [];

  /**
   * Two sweeps can run at once (a manual run beside the schedule). Taking the status label off is
   * the claim: GitHub removes it for one of them and answers the other 404. The winner records its
   * delivery in the status comment before the label goes back on, so a sweep that sees the issue
   * queued sees it was just handled, never a lost dispatch to send again.
   */
  async function claimAndDispatch(
    issue: Issue,
    from: Status,
    labels: Step,
    texts: { readonly headline: string; readonly why: string; readonly statusSeenAt?: string | null },
  ): Promise<void> {
    if ("refused" in labels) return;
    const target: EffectTarget = { gateway, issue, mask: ctx.mask };
    const claim = step(taskState(issue.labels, EMPTY_STATE), { kind: "sweep-claimed", from });
    if ("refused" in claim) return;
    if (!(await applyEffects(target, claim.effects)).removed) {
      reports.push(report(issue, "skipped", "another sweep took it first"));
      return;
    }
    // A task claimed and then lost would carry no status, and nothing sweeps an issue without one.
    const restore = async () => {
      const restored = step(claim.state, { kind: "claim-restored", labels: issue.labels });
      if (!("refused" in restored)) await applyEffects(target, restored.effects);
    };
    try {
      const record = await readStatusRecord(gateway, issue.number);
      // Another sweep handled it between this sweep's read and its claim: its status comment moved.
      if (texts.statusSeenAt !== undefined && (record.comment?.updatedAt ?? null) !== texts.statusSeenAt) {
        await restore();
        reports.push(report(issue, "skipped", "another sweep dispatched it first"));
        return;
      }
      const delivery = `stale-${ctx.run.id}-${issue.number}`;
      await advanceTask(
        statusTarget(gateway, issue, record, ctx.mask),
        taskState(claim.state.labels, record.state),
        {
          kind: "dispatch-recorded",
          headline: texts.headline,
          deliveries: [delivery],
        },
      );
      // Only the labels: the status comment above holds this sweep's delivery.
      await applyEffects(target, labels.effects);
      await dispatch(issue, delivery, texts.why);
    } catch (error) {
      await restore().catch(() => undefined);
      throw error;
    }
  }

  async function requeue(
    issue: Issue,
    from: Status,
    record: StatusState,
    event: Extract<TaskEvent, { kind: "retried" | "stale-requeued" }>,
    why: string,
  ): Promise<void> {
    await claimAndDispatch(issue, from, step(taskState(issue.labels, record), event), {
      headline: `Re-queued by the stale sweep: ${why}.`,
      why,
    });
  }

  /** Dispatches the issue's work (its sprint at most once), carrying this sweep's delivery. */
  async function dispatch(issue: Issue, delivery: string, why: string): Promise<void> {
    const request: DispatchRequest =
      issue.milestone === null
        ? { mode: "issue", issues: [issue.number], delivery }
        : { mode: "sprint", milestone: issue.milestone, delivery };
    if (request.mode === "sprint" && request.milestone !== undefined) {
      if (dispatchedSprints.has(request.milestone)) {
        reports.push(report(issue, "succeeded", `re-queued (${why}); its sprint is already dispatched`));
        return;
      }
      dispatchedSprints.add(request.milestone);
    }
    await gateway.dispatchWorkflow(config.workflow, defaultBranch, dispatchInputs(request));
    reports.push(report(issue, "succeeded", `re-queued and dispatched (${why})`));
  }

  /** A queued issue nothing runs: its dispatch was lost, or the cost cap held it back on an earlier day. */
  async function dispatchQueued(issue: ListedIssue): Promise<void> {
    const record = await readStatusRecord(gateway, issue.number);
    const refused = record.state.capRefused;
    if (refused === utcDay(ctx.clock.now())) return;
    if (refused === undefined) {
      const quietSince = record.comment?.updatedAt ?? issue.updatedAt;
      if (now - Date.parse(quietSince) < staleMs) return;
    }
    if (issue.milestone !== null) {
      if (dispatchedSprints.has(issue.milestone)) return;
      const blocked = sprintBlockedBy((await gateway.listMilestoneIssues(issue.milestone)) ?? []);
      if (blocked) return;
    }
    const why = refused
      ? `the daily cost cap held it back on ${refused}`
      : `queued with no Locus run for ${config.retry.staleAfterMinutes} minutes`;
    // Once claimed, the issue carries no status: it is queued again as a person's request would queue it.
    const unclaimed = issue.labels.filter((label) => label !== statusLabel("queued"));
    const queued = step(taskState(unclaimed, record.state), { kind: "queue-requested", byLabel: false });
    await claimAndDispatch(issue, "queued", queued, {
      headline: `Dispatched by the stale sweep: ${why}.`,
      why,
      statusSeenAt: record.comment?.updatedAt ?? null,
    });
  }

  const staleMs = config.retry.staleAfterMinutes * 60_000;
  for (const issue of await gateway.listIssues({ state: "open", labels: [statusLabel("queued")] })) {
    if (issue.isPullRequest) continue;
    if (
      live.has(`issue:${issue.number}`) ||
      (issue.milestone !== null && live.has(`sprint:${issue.milestone}`))
    ) {
      continue;
    }
    await dispatchQueued(issue);
  }
  for (const issue of await gateway.listIssues({ state: "open", labels: [statusLabel("in-progress")] })) {
    if (issue.isPullRequest) continue;
    if (
      live.has(`issue:${issue.number}`) ||
      (issue.milestone !== null && live.has(`sprint:${issue.milestone}`))
    ) {
      continue;
    }
    // The app writes the status comment before it dispatches, so work Locus started has one, even
    // when the run died between its label and its first status write.
    const record = await readStatusRecord(gateway, issue.number);
    if (!record.comment) {
      reports.push(
        report(issue, "skipped", "Locus has no status comment on it, so its status is not Locus's"),
      );
      continue;
    }
    if (now - Date.parse(record.comment.updatedAt) < staleMs) continue;
    await requeue(
      issue,
      "in-progress",
      record.state,
      { kind: "stale-requeued" },
      `no live Locus run for ${config.retry.staleAfterMinutes} minutes`,
    );
  }

  for (const issue of await gateway.listIssues({ state: "open", labels: [statusLabel("failed")] })) {
    if (issue.isPullRequest) continue;
    const { state } = await readStatusRecord(gateway, issue.number);
    const { attempts } = state;
    if (attempts === 0) {
      reports.push(
        report(issue, "skipped", "no attempt by Locus is recorded, so its failure is not Locus's"),
      );
      continue;
    }
    if (attempts <= config.retry.budget) {
      await requeue(
        issue,
        "failed",
        state,
        { kind: "retried", budget: config.retry.budget },
        `retry ${attempts} of ${config.retry.budget}`,
      );
      continue;
    }
    await gateway.upsertComment(
      issue.number,
      markerKey("retry-exhausted"),
      `Locus tried this issue ${attempts} times and will not retry it on its own (retry budget ${config.retry.budget}). Comment \`/locus run\` to try again.`,
    );
    reports.push(report(issue, "skipped", `retry budget exhausted after ${attempts} attempts`));
  }
  return { tasks: reports, ...(reports.length === 0 ? { note: "Nothing stale or retryable." } : {}) };
}
