/**
 * The logins Locus acts as in this run: its bot (learned from GitHub when the
 * run started) and the Actions token's bot. What they wrote is Locus's own
 * (not feedback), and a PR one of them opened is Locus's PR. A bot that
 * started the run is not one of them by that alone: a bot config allows may
 * start runs, but what it writes is not Locus's.
 */
import { selfLoginsOf } from "../github/locus-identity.ts";
import type { LocusIdentity } from "../github/locus-identity.ts";

export function selfLogins(ctx: { readonly identity: LocusIdentity }): string[] {
  return selfLoginsOf(ctx.identity);
}

/**
 * Locus's own review (mode `review`) is feedback like a person's, though its
 * identity is Locus's: its review and line comments are credited to this
 * name, which is no self login, so they are heard and their threads stay open
 * until Locus replies in them. Only text Locus wrote qualifies: anyone can
 * type the marker.
 */
export const LOCUS_REVIEWER = "locus-review";
