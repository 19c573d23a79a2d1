/**
 * Whose words reach a prompt. The person who triggered the work has write
 * access (the app and the Action check it), but anyone who can open an issue
 * can comment on it: text from people without write access is left out of
 * every prompt unless config `prompt.includeOutsiders` lets it in, and then
 * it is marked as coming from an outsider. Pure.
 */

export interface CommentTrust {
  /** Whether this login has write access (or is Locus, or a bot config allows). */
  readonly isWriter: (login: string) => boolean;
  /** Config `prompt.includeOutsiders`: outsiders' text is shown, fenced and labelled. */
  readonly includeOutsiders: boolean;
}

export interface AuthoredText {
  readonly author: string;
  readonly body: string;
}

export interface TrustedComments<T> {
  /** The comments the prompt shows, each marked whether its author lacks write access. */
  readonly comments: Array<T & { readonly outsider: boolean }>;
  /** How many comments were left out because their authors lack write access. */
  readonly outsidersLeftOut: number;
}

export function trustComments<T extends AuthoredText>(
  comments: readonly T[],
  trust: CommentTrust,
): TrustedComments<T> {
  const kept: Array<T & { readonly outsider: boolean }> = [];
  let outsidersLeftOut = 0;
  for (const comment of comments) {
    const outsider = !trust.isWriter(comment.author);
    if (outsider && !trust.includeOutsiders) outsidersLeftOut += 1;
    else kept.push({ ...comment, outsider });
  }
  return { comments: kept, outsidersLeftOut };
}
