/**
 * The logins Locus acts as in this run: its bot (learned from GitHub when the
 * run started) and the Actions token's bot. What they wrote is Locus's own
 * (not feedback), and a PR one of them opened is Locus's PR. A bot that
 * started the run is not one of them by that alone: a bot config allows may
 * start runs, but what it writes is not Locus's.
 */
import { selfLoginsOf } from "../auth/locus-identity.ts";
import type { ActionContext } from "./context.ts";

export function selfLogins(ctx: Pick<ActionContext, "identity">): string[] {
  return selfLoginsOf(ctx.identity);
}
