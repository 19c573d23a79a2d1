/**
 * Whom Locus's commits name. Committed as the bot with its noreply address,
 * `<id>+<login>@users.noreply.github.com`, GitHub attributes them to the app
 * (https://docs.github.com/en/account-and-profile/setting-up-and-managing-your-personal-account-on-github/managing-email-preferences/setting-your-commit-email-address).
 * Config `commit.name` / `commit.email` change only the author shown; the
 * committer stays the bot, so Locus's commits are always recognisable.
 */
import type { LocusIdentity } from "../github/locus-identity.ts";

export interface CommitPerson {
  readonly name: string;
  readonly email: string;
}

export interface CommitIdentity extends CommitPerson {
  readonly committer: CommitPerson;
}

export function noreplyEmail(identity: LocusIdentity): string {
  return `${identity.id}+${identity.login}@users.noreply.github.com`;
}

export function commitIdentity(
  identity: LocusIdentity,
  override: { readonly name?: string | undefined; readonly email?: string | undefined },
): CommitIdentity {
  const bot = { name: identity.login, email: noreplyEmail(identity) };
  return { name: override.name ?? bot.name, email: override.email ?? bot.email, committer: bot };
}

/**
 * Whether a commit's author email is the one Locus's commits carry: the configured author email, or
 * else a noreply address of one of Locus's logins (whatever the bot's id).
 */
export function isLocusAuthorEmail(
  selfLogins: readonly string[],
  override: { readonly email?: string | undefined },
  email: string,
): boolean {
  const wanted = email.toLowerCase();
  if (override.email !== undefined) return wanted === override.email.toLowerCase();
  return selfLogins.some((login) => {
    const suffix = `+${login.toLowerCase()}@users.noreply.github.com`;
    return wanted.endsWith(suffix) && /^\d+$/.test(wanted.slice(0, -suffix.length));
  });
}
