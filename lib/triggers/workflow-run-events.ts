/**
 * A Locus workflow run that failed or was cancelled: the issue it worked on
 * becomes `failed`, with the run's link, unless the Action already recorded
 * the failure itself (then the transition is not allowed and nothing happens),
 * or another run of the same work is still queued or running. The workflow's
 * concurrency group keeps one running and one pending run and cancels the
 * pending one when a newer run arrives; that cancelled run never started, and
 * the work belongs to the run still live.
 * https://docs.github.com/actions/writing-workflows/choosing-what-your-workflow-does/control-the-concurrency-of-workflows-and-jobs
 */
import { parseRunName } from "../dispatch/dispatch-inputs.ts";
import type { WorkflowRun } from "../github/index.ts";
import { statusOf } from "../status-machine/status-machine.ts";
import { issueOfBranch, wipBranch } from "../naming/branches.ts";
import { EMPTY_STATE } from "../status/status-comment.ts";
import { applyEffects } from "../lifecycle/apply-effects.ts";
import { step, taskState } from "../lifecycle/lifecycle.ts";
import type { AppContext } from "../app/app-context.ts";
import { refreshDashboard } from "./refresh-dashboard.ts";

/**
 * Whether a run's workflow file is the configured Locus workflow. A run's
 * title proves nothing: a fork's pull request names its own CI run, so
 * "Locus issue #3 (x)" may be anyone's. GitHub gives the file's path
 * (`.github/workflows/locus.yml`, with `@ref` for a called workflow):
 * https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run.
 */
export function isLocusWorkflowPath(path: string, workflow: string): boolean {
  return path.replace(/@.*$/, "") === `.github/workflows/${workflow}`;
}

const FAILED_CONCLUSIONS = new Set(["failure", "cancelled", "timed_out", "startup_failure"]);

export async function onWorkflowRunCompleted(
  ctx: AppContext,
  run: Pick<WorkflowRun, "id" | "displayTitle" | "conclusion" | "url">,
  /** The workflow's recent runs, when the caller has listed them already. */
  known?: readonly WorkflowRun[],
): Promise<number[]> {
  const parsed = parseRunName(run.displayTitle);
  if (!parsed || !FAILED_CONCLUSIONS.has(run.conclusion ?? "") || parsed.target === undefined) return [];
  const runs = known ?? (await ctx.gateway.listWorkflowRuns(ctx.config.workflow));
  const live = runs.find((other) => {
    const work = parseRunName(other.displayTitle);
    return (
      other.id !== run.id &&
      other.status !== "completed" &&
      work?.mode === parsed.mode &&
      work.target === parsed.target
    );
  });
  if (live) {
    ctx.log.info(
      `run ${run.id} ${run.conclusion ?? ""}: run ${live.id} still owns ${parsed.mode} #${parsed.target}`,
    );
    return [];
  }
  const issues = await issuesOfRun(ctx, parsed.mode, parsed.target);
  const marked: number[] = [];
  for (const issue of issues) {
    const ended = step(taskState(issue.labels, EMPTY_STATE), {
      kind: "run-ended",
      runUrl: run.url,
      conclusion: run.conclusion ?? "",
      wip: wipBranch(issue.number),
    });
    if ("refused" in ended) continue;
    // Only the labels and a comment: the status comment keeps what the Action last recorded.
    await applyEffects({ gateway: ctx.gateway, issue, mask: (text) => text }, ended.effects);
    marked.push(issue.number);
  }
  if (marked.length > 0 && parsed.mode === "sprint") await refreshDashboard(ctx, parsed.target);
  return marked;
}

async function issuesOfRun(
  ctx: AppContext,
  mode: string,
  target: number,
): Promise<Array<{ number: number; labels: readonly string[] }>> {
  if (mode === "sprint") {
    const issues = (await ctx.gateway.listMilestoneIssues(target)) ?? [];
    return issues.filter((issue) => issue.state === "open" && statusOf(issue.labels) === "in-progress");
  }
  if (mode === "iterate" || mode === "fix-ci" || mode === "rebase") {
    const pr = await ctx.gateway.getPullRequest(target);
    const number = pr ? issueOfBranch(pr.head.ref) : undefined;
    const issue = number === undefined ? null : await ctx.gateway.getIssue(number);
    return issue ? [issue] : [];
  }
  if (mode !== "issue") return [];
  const issue = await ctx.gateway.getIssue(target);
  return issue ? [issue] : [];
}
