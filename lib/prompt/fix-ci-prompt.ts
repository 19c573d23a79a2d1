/**
 * The task part of a fix-ci round: the PR as it is, and what failed in CI —
 * failed jobs and steps, the tails of their logs, check outputs and
 * annotations — bounded, with the instruction to reproduce before fixing and
 * to report a failure that has nothing to do with the PR instead of "fixing" it.
 */
import type { CiFailures } from "../ci/ci-failures.ts";
import { truncateHead } from "./budget.ts";
import { quoteUntrusted, redactSecrets, sanitizeUntrusted } from "./sanitize.ts";
import { BUDGETS, type PromptIssue, renderIssue } from "./task-prompt.ts";

/** About 6 k tokens of CI output in all. */
const CI_BUDGET_CHARS = 24_000;

const UNRELATED_TOOL = "report_unrelated_failure";

export function renderCiFailures(failures: CiFailures): string {
  const parts: string[] = [];
  for (const check of failures.checks) {
    const lines = [`### ${check.name} (${check.conclusion})`];
    if (check.failedSteps.length > 0)
      lines.push(`Failed steps: ${check.failedSteps.map((s) => `\`${s}\``).join(", ")}`);
    // Check output, annotations and logs are written by other apps and by the code under test:
    // data, fenced so that nothing in them reads as instructions or closes the fence.
    const from = `the check "${check.name}"`;
    if (check.output) lines.push(`Output:\n\n${quoteUntrusted(from, sanitizeUntrusted(check.output))}`);
    if (check.annotations.length > 0)
      lines.push(`Annotations:\n\n${quoteUntrusted(from, sanitizeUntrusted(check.annotations.join("\n")))}`);
    if (check.log) {
      const above =
        check.log.omitted > 0 ? `(${check.log.omitted} earlier lines of the step left out)\n` : "";
      lines.push(
        `Log tail of the failed step:\n\n${above}${quoteUntrusted(`the log of ${from}`, check.log.lines.join("\n"))}`,
      );
    }
    parts.push(lines.join("\n\n"));
  }
  if (failures.omitted > 0) parts.push(`(${failures.omitted} more failed checks left out)`);
  return truncateHead(redactSecrets(parts.join("\n\n")), CI_BUDGET_CHARS, "CI output").text;
}

export function renderFixCiTask(input: {
  readonly issue: PromptIssue;
  readonly pr: { readonly number: number; readonly diff: string };
  readonly failures: CiFailures;
  /**
   * Whether the agent has the `report_unrelated_failure` tool. Only the built-in agent does: a CLI
   * or ACP agent's one structured answer would be forced on every round, fix or not, so it says
   * an unrelated failure in its final message instead (and changes nothing).
   */
  readonly canReportUnrelated: boolean;
}): string {
  const diff = truncateHead(input.pr.diff, BUDGETS.prDiff, "PR diff", "Read the files for the rest.");
  return [
    renderIssue(input.issue),
    `## Pull request #${input.pr.number} (your earlier work)\n\n\`\`\`diff\n${diff.text}\n\`\`\``,
    `## CI failed on this pull request\n\n${renderCiFailures(input.failures)}`,
    [
      "Make CI pass. First reproduce the failure locally where you can (run the same command the failed step ran),",
      "then fix its cause in the code and run the command again. Do not weaken or delete tests to make them pass,",
      "and do not rewrite the PR from scratch.",
      `If the failure has nothing to do with this PR (a flaky test that passes locally, the CI infrastructure, a`,
      input.canReportUnrelated
        ? `service that was down), change nothing: call \`${UNRELATED_TOOL}\` with the evidence, then finish.`
        : "service that was down), change nothing and say so, with the evidence, in your final message.",
    ].join(" "),
  ].join("\n\n");
}
