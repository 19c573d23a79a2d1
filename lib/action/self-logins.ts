/**
 * The logins Locus may act as: the configured commit identity, the Actions
 * token's bot, and the app's bot when it started the run. What they wrote is
 * Locus's own (not feedback), and a PR one of them opened is Locus's PR.
 */
import type { ActionContext } from "./context.ts";

export function selfLogins(ctx: Pick<ActionContext, "config" | "run">): string[] {
  const logins = [ctx.config.commit.name, "github-actions[bot]"];
  if (ctx.run.actor.endsWith("[bot]")) logins.push(ctx.run.actor);
  return logins;
}

export function isSelf(logins: readonly string[], login: string): boolean {
  return logins.some((candidate) => candidate.toLowerCase() === login.toLowerCase());
}
