/**
 * Who Locus is on GitHub, and the one answer to "is this Locus". Every
 * operator registers their own app, so Locus's bot is `<slug>[bot]` with a
 * slug of the operator's choosing: it is learned from GitHub (the app's
 * `GET /app`, the token exchange's answer, `create-github-app-token`'s
 * `app-slug` output), never assumed. A run with only the workflow's
 * `GITHUB_TOKEN` acts as `github-actions[bot]`, so what that bot wrote (the
 * stale sweep's labels, a status comment of such a run) is Locus's too.
 */

/** The identity of a workflow's `GITHUB_TOKEN`. */
export const ACTIONS_BOT = "github-actions[bot]";

export interface LocusIdentity {
  /** The bot's login: `<slug>[bot]`, or `github-actions[bot]`. */
  readonly login: string;
  /** The bot user's id (`GET /users/{login}`), which its noreply address carries. */
  readonly id: number;
}

/** A GitHub App's bot user is named after its slug. */
export function botLoginOf(slug: string): string {
  return `${slug}[bot]`;
}

/** The logins whose writes are Locus's own: its bot and the Actions bot. */
export function selfLoginsOf(identity: Pick<LocusIdentity, "login">): string[] {
  return identity.login.toLowerCase() === ACTIONS_BOT ? [ACTIONS_BOT] : [identity.login, ACTIONS_BOT];
}

/**
 * Whether `login` is one of Locus's logins (case-insensitive, as GitHub's logins are). Logins are
 * compared whole: a person whose login equals the app's slug is not its bot.
 */
export function isLocus(selfLogins: readonly string[], login: string): boolean {
  const wanted = login.toLowerCase();
  return selfLogins.some((self) => self.toLowerCase() === wanted);
}
