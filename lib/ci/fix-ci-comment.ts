/**
 * What a fix-ci round says on its pull request: what failed (checks and
 * steps), and what changed — or why nothing did.
 */
import { safeToPublish } from "../render/safe-text.ts";
import type { CiFailures } from "./ci-failures.ts";

function whatFailed(failures: CiFailures, headSha: string): string {
  const checks = failures.checks.map((check) => {
    const steps =
      check.failedSteps.length > 0 ? ` (step ${check.failedSteps.map((s) => `\`${s}\``).join(", ")})` : "";
    return `- **${check.name}**${steps}: ${check.conclusion}`;
  });
  const more = failures.omitted > 0 ? [`- and ${failures.omitted} more`] : [];
  return [`CI failed on ${headSha.slice(0, 7)}:`, ...checks, ...more].join("\n");
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
      const files = outcome.files.map((file) => `\`${file}\``).join(", ");
      return `${failed}\n\nLocus pushed ${outcome.sha.slice(0, 7)} (\`fix: make CI pass\`), changing ${files}.\n\n${safeToPublish(outcome.summary)}`;
    }
    case "unrelated":
      return `${failed}\n\nLocus judged this failure unrelated to the pull request and changed nothing: ${safeToPublish(outcome.reason)}\n\nRe-run the failed jobs, or comment \`/locus fix-ci\` to have Locus try anyway.`;
    case "unchanged":
      return `${failed}\n\nLocus looked into it and changed nothing:\n\n${safeToPublish(outcome.summary)}`;
  }
}
