/**
 * workflow_run.completed: a failed or cancelled run of the Locus workflow file
 * marks its issue failed; a failed run of another workflow on a Locus PR's head may start a
 * fix-ci round.
 */
import type { Context } from "probot";
import type { AppContext } from "../../lib/app/app-context.ts";
import { onCiFailure } from "../../lib/triggers/ci-failure-events.ts";
import { isLocusWorkflowPath, onWorkflowRunCompleted } from "../../lib/triggers/workflow-run-events.ts";
import { parseRunName } from "../../lib/dispatch/dispatch-inputs.ts";

export async function onWorkflowRun(
  ctx: AppContext,
  context: Context<"workflow_run.completed">,
): Promise<void> {
  const run = context.payload.workflow_run;
  const named = parseRunName(run.display_title ?? "") !== undefined;
  if (!named || !isLocusWorkflowPath(run.path, ctx.config.workflow)) {
    // Not a Locus run: a run titled like one but from another workflow file is somebody's CI.
    const outcome = await onCiFailure(ctx, {
      source: { kind: "run", id: run.id },
      conclusion: run.conclusion,
      headSha: run.head_sha,
      headBranch: run.head_branch,
      headAuthorEmail: run.head_commit?.author?.email ?? null,
      workflowPath: run.path,
    });
    ctx.log.info(`CI run ${run.id} (${run.path}) ${run.conclusion} on ${run.head_branch ?? "?"}: ${outcome}`);
    return;
  }
  const marked = await onWorkflowRunCompleted(ctx, {
    id: run.id,
    displayTitle: run.display_title ?? "",
    conclusion: run.conclusion,
    url: run.html_url,
  });
  if (marked.length > 0) ctx.log.info(`run ${run.id} ${run.conclusion}: marked failed ${marked.join(", ")}`);
}
