/** May this actor make Locus work here? Locus itself and unlisted bots are ignored silently; people without write access are refused. */
import { classifyActor, mayTriggerWork, refusalMessage, type Actor } from "./actor-policy.ts";
import type { AppContext } from "../app/app-context.ts";

export type Authorization = { ok: true } | { ok: false; reason: string; refusal?: string };

export async function authorize(ctx: AppContext, actor: Actor): Promise<Authorization> {
  const verdict = classifyActor(actor, ctx.selfLogins, ctx.config.bots.allowed);
  if (verdict.kind === "self" || verdict.kind === "ignored-bot") return { ok: false, reason: verdict.reason };
  const permission = await ctx.permissionOf(actor.login);
  if (mayTriggerWork(permission)) return { ok: true };
  return {
    ok: false,
    reason: `${actor.login} has ${permission} permission`,
    refusal: refusalMessage(actor.login, permission),
  };
}
