/** Commit messages and PR titles: `<type>: <issue title> (#<N>)`. */
import { defusePlainText } from "../render/tree/defuse.ts";

const TYPE_PREFIX: Readonly<Record<string, string>> = {
  "type:feature": "feat",
  "type:bug": "fix",
  "type:chore": "chore",
  "type:refactor": "refactor",
  "type:docs": "docs",
};

export function commitType(labels: readonly string[]): string {
  for (const label of labels) {
    const prefix = TYPE_PREFIX[label];
    if (prefix) return prefix;
  }
  return "feat";
}

/** One line, whitespace collapsed: an issue title may hold newlines or tabs. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function taskCommitMessage(issue: {
  number: number;
  title: string;
  labels: readonly string[];
}): string {
  // A title saying "fixes #12" would close #12 when the commit reaches the default branch.
  return defusePlainText(`${commitType(issue.labels)}: ${oneLine(issue.title)} (#${issue.number})`);
}

export function iterateCommitMessage(issue: number): string {
  return `fix: address review feedback (#${issue})`;
}

/**
 * The trailer that credits the person who asked for a commit on their own pull request, with the
 * noreply address GitHub ties to their account (`<id>+<login>@users.noreply.github.com`).
 * https://docs.github.com/en/pull-requests/committing-changes-to-your-project/creating-and-editing-commits/creating-a-commit-with-multiple-authors
 */
export function coAuthorTrailer(person: { login: string; id: number }): string {
  return `Co-authored-by: ${person.login} <${person.id}+${person.login}@users.noreply.github.com>`;
}

/** A commit message with trailers after a blank line, as git reads them. */
export function withTrailers(message: string, trailers: readonly string[]): string {
  return trailers.length === 0 ? message : `${message}\n\n${trailers.join("\n")}`;
}

export function pullRequestTitle(issue: {
  number: number;
  title: string;
  labels: readonly string[];
}): string {
  return taskCommitMessage(issue);
}

const CLOSES = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#([1-9][0-9]*)\b/i;

/** The issue a PR body closes, as GitHub's closing keywords read it. */
export function closedIssueOf(body: string | null | undefined): number | undefined {
  const match = body ? CLOSES.exec(body) : null;
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
