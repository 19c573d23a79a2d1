import type { Issue, Repo } from "./model.ts";

const CLOSING_KEYWORD = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#([1-9][0-9]*)\b/gi;

// The issues a PR's body names with a closing keyword. GitHub links (and on merge closes) them only
// for a PR into the default branch; a stacked PR closes nothing.
export function closingIssues(repo: Repo, pull: Issue): Issue[] {
  if (pull.pull?.base !== repo.defaultBranch) return [];
  const issues: Issue[] = [];
  for (const match of (pull.body ?? "").matchAll(CLOSING_KEYWORD)) {
    const linked = repo.issues.get(Number(match[1]));
    if (linked && !linked.pull && !issues.includes(linked)) issues.push(linked);
  }
  return issues;
}
