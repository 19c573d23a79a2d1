/**
 * The task of resolving one rebase stop: the conflicting hunks of each file
 * (with the common ancestor, as diff3 markers show it), the commit being
 * replayed and what the new base brought, so the agent can keep both intents.
 *
 * Commit messages are untrusted text: the base branch holds whatever its
 * merged pull requests said (a fork's author writes their subjects), and a
 * git author name proves nothing about who wrote it. So they are sanitised
 * and fenced as data, like a comment from someone without write access.
 */
import { codeBlock } from "../render/markdown.ts";
import { truncateHead } from "./budget.ts";
import { quoteUntrusted, sanitizeUntrusted } from "./sanitize.ts";
import { BUDGETS, type AnsweredQuestions } from "./task-prompt.ts";

export interface ConflictFile {
  readonly path: string;
  readonly text: string;
}

const HUNK_CONTEXT = 3;
const CONFLICT_BUDGET = 30_000;

/** Each conflict region of a file with a few lines around it. */
export function conflictHunks(text: string): string {
  const lines = text.split("\n");
  const keep = new Set<number>();
  let start = -1;
  lines.forEach((line, index) => {
    if (line.startsWith("<<<<<<< ")) start = index;
    if (line.startsWith(">>>>>>> ") && start >= 0) {
      for (
        let i = Math.max(0, start - HUNK_CONTEXT);
        i <= Math.min(lines.length - 1, index + HUNK_CONTEXT);
        i += 1
      )
        keep.add(i);
      start = -1;
    }
  });
  const out: string[] = [];
  let last = -2;
  for (const index of [...keep].sort((a, b) => a - b)) {
    if (index !== last + 1) out.push(`@@ line ${index + 1}`);
    out.push(lines[index] ?? "");
    last = index;
  }
  return out.join("\n");
}

export function hasConflictMarkers(text: string): boolean {
  return /^(<<<<<<< |>>>>>>> |\|\|\|\|\|\|\| )/m.test(text);
}

export function renderConflictTask(input: {
  /** What is being rebased: `PR #4 (\`locus/issue-4\`)`, or the saved work of a task. */
  readonly what: string;
  readonly onto: string;
  readonly commit: { readonly sha: string; readonly message: string };
  readonly baseCommits: string;
  readonly files: readonly ConflictFile[];
}): string {
  const files = input.files
    .map((file) => `### ${file.path}\n\n${codeBlock(conflictHunks(file.text), "text")}`)
    .join("\n\n");
  const replayed = quoteUntrusted("the commit's author", sanitizeUntrusted(input.commit.message));
  const base = input.baseCommits
    ? quoteUntrusted("the base branch's commit authors", sanitizeUntrusted(input.baseCommits))
    : "(none listed)";
  return [
    `## Rebase of ${input.what} onto \`${input.onto}\` stopped on a conflict`,
    `The commit being replayed (${input.commit.sha.slice(0, 7)}), its intent:\n\n${replayed}`,
    `What the new base brought (its commits since the branch left it, one subject a line):\n\n${base}`,
    `## Conflicting files\n\nBetween \`<<<<<<<\` and \`|||||||\` is the new base's side, between \`|||||||\` and \`=======\` the common ancestor, between \`=======\` and \`>>>>>>>\` the replayed commit's side.\n\n${truncateHead(files, CONFLICT_BUDGET, "conflicts", "Read the files for the rest.").text}`,
    [
      "Resolve every conflict in these files so that both intents hold: keep what the new base changed and apply",
      "what the replayed commit meant to do. Remove all conflict markers, run the checks you can (the tests), and",
      "do not commit: Locus continues the rebase. If the two sides cannot be reconciled, leave the markers in place",
      "and finish explaining why; Locus then leaves the branch as it was.",
    ].join(" "),
  ].join("\n\n");
}

/**
 * A task that stopped to ask how to reconcile such a conflict gets the answer with the conflict the next
 * time; empty when nobody answered (a writer restarted it without one).
 */
export function renderConflictAnswers(answered: AnsweredQuestions): string {
  if (answered.answers.length === 0) return "";
  const questions = answered.questions.map(
    (question) => `- ${sanitizeUntrusted(question).replace(/\s+/g, " ").trim()}`,
  );
  const answers = answered.answers
    .map((answer) => quoteUntrusted(`@${answer.author}`, sanitizeUntrusted(answer.body)))
    .join("\n\n");
  return [
    "## What you asked last time, and the answer",
    questions.join("\n"),
    truncateHead(answers, BUDGETS.comments, "answer").text,
    "Resolve the conflict as the answer says.",
  ].join("\n\n");
}
