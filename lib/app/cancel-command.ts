/** `/locus cancel`: stop the live Locus runs working on this issue or PR, and mark it failed. */
import { parseRunName } from "../dispatch/dispatch-inputs.ts";
import { transition } from "../labels/status.ts";
import type { AppContext } from "./app-context.ts";

export async function cancelCommand(
  ctx: AppContext,
  target: { number: number; labels: readonly string[]; milestone: number | null },
  requester: string,
): Promise<string> {
  const runs = await ctx.gateway.listWorkflowRuns(ctx.config.workflow);
  const live = runs.filter((run) => {
    if (run.status === "completed") return false;
    const parsed = parseRunName(run.displayTitle);
    if (!parsed) return false;
    return parsed.mode === "sprint" ? parsed.target === target.milestone : parsed.target === target.number;
  });
  for (const run of live) await ctx.gateway.cancelWorkflowRun(run.id);
  const failed = transition(target.labels, "fail");
  if (failed.ok && failed.changed) await ctx.gateway.setLabels(target.number, failed.labels);
  if (live.length === 0 && !failed.ok) return "Nothing to cancel: no Locus run is working on this.";
  const links = live.map((run) => `[run ${run.id}](${run.url})`).join(", ");
  return `Cancelled by @${requester}${links ? `: ${links}` : ""}. Work saved so far is kept; \`/locus run\` starts again.`;
}
