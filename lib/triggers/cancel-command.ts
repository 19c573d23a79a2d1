/**
 * `/locus cancel`: stop the live Locus runs working on this issue or PR and
 * clear its status. A cancelled task is no failure: the stale sweep retries
 * only failures, so nothing starts it again until someone says so. Its work
 * so far stays on `locus/wip/issue-<N>` (the Action saves it when cancelled).
 */
import { parseRunName } from "../dispatch/dispatch-inputs.ts";
import { EMPTY_STATE } from "../status/status-comment.ts";
import { applyEffects } from "../lifecycle/apply-effects.ts";
import { step, taskState } from "../lifecycle/lifecycle.ts";
import type { AppContext } from "../app/app-context.ts";

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
  const cleared = step(taskState(target.labels, EMPTY_STATE), { kind: "cancel-requested" });
  // Only the labels: the cancelled run records its own ending in the status comment.
  if (!("refused" in cleared))
    await applyEffects({ gateway: ctx.gateway, issue: target, mask: (text) => text }, cleared.effects);
  if (live.length === 0 && "refused" in cleared) return "Nothing to cancel: no Locus run is working on this.";
  const links = live.map((run) => `[run ${run.id}](${run.url})`).join(", ");
  return `Cancelled by @${requester}${links ? `: ${links}` : ""}. The status is cleared and Locus will not retry it on its own; work saved so far is kept on \`locus/wip/…\`, and \`/locus run\` continues from it.`;
}
