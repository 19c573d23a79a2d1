/** workflow_run.completed: a failed or cancelled run of the Locus workflow file marks its issue failed. */
import type { Context } from "probot";
import type { AppContext } from "../../lib/app/app-context.ts";
import { isLocusWorkflowPath, onWorkflowRunCompleted } from "../../lib/app/workflow-run-events.ts";

export async function onWorkflowRun(
  ctx: AppContext,
  context: Context<"workflow_run.completed">,
): Promise<void> {
  const run = context.payload.workflow_run;
  if (!isLocusWorkflowPath(run.path, ctx.config.workflow)) {
    ctx.log.info(`run ${run.id} is named like Locus's but ran ${run.path}, not the Locus workflow; ignored`);
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
