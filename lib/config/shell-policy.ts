/**
 * The agent's shell policy (config `shell.allow` / `shell.deny`).
 *
 * Patterns are globs where `*` stands for any run of characters (spaces included) and everything
 * else is literal, matched against a whole command, not a substring: `git push*` refuses
 * `git push origin main` but not `echo git push`. Before matching, a backslash-newline
 * continuation becomes a space and runs of whitespace become one space, so `git  push` and
 * `git \⏎push` cannot slip past. A command is also cut at the shell's control characters
 * (`;` `&` `|` newline `(` `)` backtick), quotes ignored, and every piece is checked as well:
 *
 * - deny refuses the command if it matches the whole command or any piece, so
 *   `npm test && git push` and `echo $(git push)` are refused;
 * - allow needs every piece to match some pattern, so allowing `npm test*` does not allow
 *   `npm test; curl …`. Ignoring quotes can refuse a legitimate command under a narrow
 *   allowlist (`npm test -- --grep "a|b"`); refusing is the safe way to be wrong.
 *
 * What a glob cannot catch: the same program spelled differently — `git -c k=v push`,
 * `/usr/bin/git push`, `env git push`, `"git" push`, `sh -c 'git push'`, `eval`, aliases,
 * scripts the agent writes and then runs. The policy keeps an honest model from mistakes; it is
 * not a sandbox. Pushing is really prevented by the agent's shell having no credentials (stripped
 * environment, `persist-credentials: false`), and only Locus pushes.
 */

export interface ShellPolicy {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

export type ShellDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly reason: "denied"; readonly pattern: string; readonly matched: string }
  | { readonly allowed: false; readonly reason: "not-allowed"; readonly matched: string };

/** Why a command is refused, for the tool result the model reads. */
export function decideShellCommand(command: string, policy: ShellPolicy): ShellDecision {
  const { whole, pieces } = split(command);
  for (const candidate of [whole, ...pieces]) {
    const pattern = policy.deny.find((deny) => globMatches(deny, candidate));
    if (pattern !== undefined) return { allowed: false, reason: "denied", pattern, matched: candidate };
  }
  for (const piece of pieces.length > 0 ? pieces : [whole]) {
    if (!policy.allow.some((allow) => globMatches(allow, piece))) {
      return { allowed: false, reason: "not-allowed", matched: piece };
    }
  }
  return { allowed: true };
}

/** True when the policy lets `command` run: it passes allow and no deny pattern matches (deny wins). */
export function matchesShellPolicy(command: string, policy: ShellPolicy): boolean {
  return decideShellCommand(command, policy).allowed;
}

/**
 * True when `pattern` matches the whole command or one of its pieces, as a deny pattern would:
 * a hook for `npm *` runs around `cd web && npm test` too.
 */
export function commandMentions(pattern: string, command: string): boolean {
  const { whole, pieces } = split(command);
  return [whole, ...pieces].some((candidate) => globMatches(pattern, candidate));
}

function split(command: string): { whole: string; pieces: string[] } {
  const whole = normalise(command);
  const pieces = whole
    .split(/[;&|\n()`]/)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== "");
  return { whole, pieces };
}

function normalise(command: string): string {
  return command
    .replace(/\\\r?\n/g, " ")
    .replace(/[^\S\n]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .trim();
}

/**
 * Whole-string glob match with `*` only. Iterative with a single backtrack point, so it stays
 * O(pattern × text) where a regular expression built from `*a*a*a*b` could backtrack exponentially.
 */
function globMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star !== -1) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}
