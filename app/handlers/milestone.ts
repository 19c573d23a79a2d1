/** milestone.created / milestone.edited with a description that became `locus: active` (see event-filters.ts): start the sprint. */
import type { Context } from "probot";
import { activateSprint } from "../../lib/triggers/activate-sprint.ts";
import type { AppContext } from "../../lib/app/app-context.ts";
import { authorize } from "../../lib/trust/authorize.ts";

type MilestoneContext = Context<"milestone.created"> | Context<"milestone.edited">;

export async function onMilestoneChanged(ctx: AppContext, context: MilestoneContext): Promise<void> {
  const { milestone, sender } = context.payload;
  const access = await authorize(ctx, sender);
  if (!access.ok) {
    ctx.log.info(`milestone ${milestone.number} marked active by ${sender.login}, ignored: ${access.reason}`);
    return;
  }
  const outcome = await activateSprint(ctx, milestone.number);
  ctx.log.info(`milestone ${milestone.number} activated: ${outcome}`);
}
