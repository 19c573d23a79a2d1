/** `/locus status`: the sprint dashboard, or one issue's status. */
import { statusOf } from "../labels/status.ts";
import { renderSprintDashboard } from "../render/sprint-dashboard.ts";
import type { AppContext } from "./app-context.ts";

export async function statusCommand(
  ctx: AppContext,
  target: { number: number; labels: readonly string[]; milestone: number | null },
): Promise<string> {
  if (target.milestone !== null) {
    const [milestone, issues] = await Promise.all([
      ctx.gateway.getMilestone(target.milestone),
      ctx.gateway.listMilestoneIssues(target.milestone),
    ]);
    if (milestone && issues) return renderSprintDashboard(milestone, issues);
  }
  const status = statusOf(target.labels);
  return status
    ? `#${target.number} is \`locus:${status}\`.`
    : `#${target.number} is not queued. Label it \`locus:queued\` or comment \`/locus run\` to start work.`;
}
