/**
 * What GitHub checks in a push beyond permissions, as the simulator plays it: a branch ruleset's
 * `required_signatures` rule (every new commit on a matching branch must be Verified: here, made
 * by `createCommitOnBranch`) and secret scanning's push protection (a commit that adds a GitHub
 * token is refused). Both refuse the whole push in a pre-receive check with GitHub's GH013 text,
 * which git shows the pusher as `remote:` lines.
 * https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/available-rules-for-rulesets#require-signed-commits
 * https://docs.github.com/en/code-security/secret-scanning/working-with-secret-scanning-and-push-protection/working-with-push-protection-from-the-command-line
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Repo } from "./model.ts";

/** The check, run by the pre-receive hook with the pushed refs on stdin. `set -f`: patterns are not file globs. */
export const RULES_CHECK = `#!/bin/sh
set -f
zero=0000000000000000000000000000000000000000
matches() {
  for p in $SIM_SIGNED_EXCLUDE; do case "$1" in $p) return 1;; esac; done
  for p in $SIM_SIGNED_INCLUDE; do case "$1" in $p) return 0;; esac; done
  return 1
}
while read old new ref; do
  [ "$new" = "$zero" ] && continue
  if [ "$old" = "$zero" ]; then commits=$(git rev-list "$new" --not --all); else commits=$(git rev-list "$old..$new"); fi
  if [ -n "$SIM_SIGNED_INCLUDE" ] && matches "$ref"; then
    unsigned=""
    count=0
    for c in $commits; do
      if ! grep -qx "$c" "$SIM_VERIFIED_FILE"; then unsigned="$unsigned $c"; count=$((count + 1)); fi
    done
    if [ -n "$unsigned" ]; then
      encoded=$(printf '%s' "$ref" | sed 's|/|%2F|g')
      echo "error: GH013: Repository rule violations found for $ref." >&2
      echo "Review all repository rules at $SIM_RULES_URL?ref=$encoded" >&2
      echo "" >&2
      echo "- Commits must have verified signatures." >&2
      if [ "$count" = 1 ]; then echo "  Found 1 violation:" >&2; else echo "  Found $count violations:" >&2; fi
      echo "" >&2
      for c in $unsigned; do echo "  $c" >&2; done
      echo "" >&2
      exit 1
    fi
  fi
  if [ "$SIM_PUSH_PROTECTION" = "1" ]; then
    for c in $commits; do
      found=$(git diff-tree --root -r -p --no-commit-id "$c" | grep -E '^[+].*gh[pousr]_[A-Za-z0-9]{36}' | head -n 1)
      if [ -n "$found" ]; then
        echo "error: GH013: Repository rule violations found for $ref." >&2
        echo "" >&2
        echo "- GITHUB PUSH PROTECTION" >&2
        echo "  Resolve the following violations before pushing again" >&2
        echo "" >&2
        echo "  - Push cannot contain secrets" >&2
        echo "" >&2
        echo "   —— GitHub Personal Access Token ——" >&2
        echo "    locations:" >&2
        echo "      - commit: $c" >&2
        echo "" >&2
        exit 1
      fi
    done
  fi
done
exit 0
`;

/** The ref patterns the active `required_signatures` rulesets cover, as shell patterns. */
function signedPatterns(repo: Repo): { include: string[]; exclude: string[] } {
  const active = (repo.rulesets ?? []).filter(
    (set) => set.enforcement === "active" && set.rules.some((rule) => rule.type === "required_signatures"),
  );
  const pattern = (name: string) =>
    name === "~ALL" ? "*" : name === "~DEFAULT_BRANCH" ? `refs/heads/${repo.defaultBranch}` : name;
  return {
    include: active.flatMap((set) => set.conditions.ref_name.include.map(pattern)),
    exclude: active.flatMap((set) => set.conditions.ref_name.exclude.map(pattern)),
  };
}

let pushes = 0;

/**
 * The environment of the pre-receive hook for one push, and a cleanup for after it: the
 * repository's verified commits go in a file of the push's own.
 */
export async function pushRuleEnv(
  repo: Repo,
  webUrl: string,
  scratch: string,
): Promise<{ env: Record<string, string>; done: () => Promise<void> }> {
  const { include, exclude } = signedPatterns(repo);
  pushes += 1;
  const verified = join(scratch, `verified-${repo.id}-${pushes}`);
  await writeFile(verified, [...(repo.verifiedCommits ?? [])].map((sha) => `${sha}\n`).join(""));
  const env = {
    SIM_SIGNED_INCLUDE: include.join(" "),
    SIM_SIGNED_EXCLUDE: exclude.join(" "),
    SIM_VERIFIED_FILE: verified,
    SIM_RULES_URL: `${webUrl}/${repo.owner}/${repo.name}/rules`,
    SIM_PUSH_PROTECTION: repo.pushProtection ? "1" : "0",
  };
  return { env, done: () => rm(verified, { force: true }) };
}
