/** May this actor make Locus work here? Locus itself and unlisted bots are ignored silently; people without write access are refused. */
import { classifyActor, mayTriggerWork, refusalMessage, type Actor } from "./actor-policy.ts";
import type { LocusConfig } from "../config/index.ts";
import type { Permission } from "../github/index.ts";

export type Authorization = { ok: true } | { ok: false; reason: string; refusal?: string };

/** What the check needs: who Locus is, which bots config lets in, and the actor's permission. */
export interface AuthorizePorts {
  readonly selfLogins: readonly string[];
  readonly config: Pick<LocusConfig, "bots">;
  permissionOf(login: string): Promise<Permission>;
}

export async function authorize(ctx: AuthorizePorts, actor: Actor): Promise<Authorization> {
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
