/**
 * A status label someone without write access (or an unlisted bot) added is
 * taken off again: the lifecycle's `label-refused`, one label removed on its
 * own, whatever else happened to the issue's labels meanwhile.
 */
import { applyEffects } from "../lifecycle/apply-effects.ts";
import { step, taskState } from "../lifecycle/lifecycle.ts";
import { EMPTY_STATE } from "../status/status-comment.ts";
import type { AppContext } from "../app/app-context.ts";

export async function refuseLabel(ctx: AppContext, issue: number, label: string): Promise<void> {
  const refused = step(taskState([], EMPTY_STATE), { kind: "label-refused", label });
  if ("refused" in refused) return;
  await applyEffects(
    { gateway: ctx.gateway, issue: { number: issue }, mask: (text) => text },
    refused.effects,
  );
}
