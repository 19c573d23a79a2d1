/**
 * The person the app checked for write access before it dispatched this run,
 * when the run proves it came from the app: the run was started by the app's
 * own bot (only the app's token dispatches as it), and the status
 * comment, written by that same bot, names this run's delivery as the one
 * for which it checked `requester`. The Action then takes that check as its
 * own instead of asking GitHub again; anything short of that proof (a run
 * started by a person, by `github-actions[bot]`, another delivery's record)
 * leaves the login to be looked up as before.
 */
import { ACTIONS_BOT, isLocus } from "../github/locus-identity.ts";
import type { StatusRecord } from "../status/status-store.ts";

export function appCheckedRequester(
  run: { readonly actor: string; readonly delivery: string; readonly bot: string },
  record: StatusRecord,
): string | undefined {
  const { requester, requesterDelivery } = record.state;
  if (requester === undefined || requesterDelivery === undefined || run.delivery === "") return undefined;
  const app = [run.bot];
  if (run.bot.toLowerCase() === ACTIONS_BOT || !isLocus(app, run.actor)) return undefined;
  if (!record.comment || !isLocus(app, record.comment.author)) return undefined;
  return requesterDelivery === run.delivery ? requester : undefined;
}
