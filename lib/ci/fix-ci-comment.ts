/**
 * What a fix-ci round says on its pull request: what failed (checks and
 * steps), and what changed — or why nothing did. Built as a tree: check and
 * step names (repository data), file names and the agent's words are text
 * and code in it.
 */
import type { BlockContent } from "mdast";
import { code, list, paragraph, root, strong, type Inline } from "../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../render/tree/serialize.ts";
import { untrustedInline, untrustedMarkdown } from "../render/tree/untrusted-text.ts";
import type { CiFailures } from "./ci-failures.ts";

function whatFailed(failures: CiFailures, headSha: string): BlockContent[] {
  const checks = failures.checks.map((check): Inline[] => {
    const steps: Inline[] =
      check.failedSteps.length > 0
        ? [
            " (step ",
            ...check.failedSteps.flatMap((step, i) => (i > 0 ? [", ", code(step)] : [code(step)])),
            ")",
          ]
        : [];
    return [strong(check.name.replace(/\s+/g, " ")), ...steps, `: ${check.conclusion}`];
  });
  const more: Inline[][] = failures.omitted > 0 ? [[`and ${failures.omitted} more`]] : [];
  return [paragraph(`CI failed on ${headSha.slice(0, 7)}:`), list([...checks, ...more])];
}

export type FixCiOutcome =
  | {
      readonly kind: "fixed";
      readonly sha: string;
      readonly files: readonly string[];
      readonly summary: string;
    }
  | { readonly kind: "unrelated"; readonly reason: string; readonly summary: string }
  | { readonly kind: "unchanged"; readonly summary: string };

export function renderFixCiComment(failures: CiFailures, headSha: string, outcome: FixCiOutcome): string {
  const failed = whatFailed(failures, headSha);
  switch (outcome.kind) {
    case "fixed": {
      const files = outcome.files.flatMap((file, i) => (i > 0 ? [", ", code(file)] : [code(file)]));
      return toGitHubMarkdown(
        root(
          failed,
          paragraph(
            `Locus pushed ${outcome.sha.slice(0, 7)} (`,
            code("fix: make CI pass"),
            "), changing ",
            ...files,
            ".",
          ),
          untrustedMarkdown(outcome.summary),
        ),
      );
    }
    case "unrelated":
      return toGitHubMarkdown(
        root(
          failed,
          paragraph(
            "Locus judged this failure unrelated to the pull request and changed nothing: ",
            ...untrustedInline(outcome.reason.replace(/\s+/g, " ")),
          ),
          paragraph(
            "Re-run the failed jobs, or comment ",
            code("/locus fix-ci"),
            " to have Locus try anyway.",
          ),
        ),
      );
    case "unchanged":
      return toGitHubMarkdown(
        root(
          failed,
          paragraph("Locus looked into it and changed nothing:"),
          untrustedMarkdown(outcome.summary),
        ),
      );
  }
}

/**
 * What the app says when it stops the automatic rounds: CI still fails after
 * `rounds` of them. The check names are the repository's data, so text in
 * the tree; none when they could not be read.
 */
export function renderCiStillFails(headSha: string, rounds: number, checks: readonly string[]): string {
  const names: Inline[][] =
    checks.length === 0
      ? [["(the failed checks could not be read)"]]
      : checks.map((name) => [strong(name.replace(/\s+/g, " "))]);
  return toGitHubMarkdown(
    root(
      paragraph(`CI still fails on ${headSha.slice(0, 7)} after ${rounds} automatic fix-ci rounds in a row:`),
      list(names),
      paragraph(
        "Locus stops fixing it by itself here. Push a fix, or comment ",
        code("/locus fix-ci"),
        " to have Locus try again.",
      ),
    ),
  );
}
