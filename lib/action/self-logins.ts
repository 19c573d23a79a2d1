/**
 * The logins Locus may act as: the configured commit identity (the app's bot)
 * and the Actions token's bot. What they wrote is Locus's own (not feedback),
 * and a PR one of them opened is Locus's PR. A bot that started the run is
 * not one of them by that alone: a bot config allows may start runs, but what
 * it writes is not Locus's.
 */
import type { ActionContext } from "./context.ts";

export function selfLogins(ctx: Pick<ActionContext, "config">): string[] {
  return [ctx.config.commit.name, "github-actions[bot]"];
}

export function isSelf(logins: readonly string[], login: string): boolean {
  return logins.some((candidate) => candidate.toLowerCase() === login.toLowerCase());
}
