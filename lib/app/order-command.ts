/** `/locus order 17 15 16`: reorder a sprint's unfinished issues (docs/architecture.md "Ordering"). */
import { orderLabel } from "../labels/schema.ts";
import { reorder } from "../sprint/reorder.ts";
import type { AppContext } from "./app-context.ts";

export async function orderCommand(
  ctx: AppContext,
  milestone: number | null,
  requested: readonly number[],
): Promise<string> {
  if (milestone === null)
    return "`/locus order` works on an issue of a sprint: this issue is in no milestone.";
  const issues = await ctx.gateway.listMilestoneIssues(milestone);
  if (!issues) return "The milestone of this issue no longer exists.";
  const result = reorder(issues, requested);
  if (!result.ok) return result.message;
  for (const change of result.changes) {
    await ctx.gateway.createLabel(orderLabel(change.to));
    await ctx.gateway.setLabels(change.number, change.labels);
  }
  const sequence = requested
    .map((number, index) => `\`order:${result.floor + 1 + index}\` #${number}`)
    .join(", ");
  return result.changes.length === 0 ? `Already in that order: ${sequence}.` : `New order: ${sequence}.`;
}
