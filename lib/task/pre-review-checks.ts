/**
 * The checks a branch passes before its pull request opens (docs/checks.md):
 * GitHub's dependency review of what the branch adds, and the files that look
 * generated or vendored. A check that cannot run says so in the PR body; it
 * never fails the task. Only `pr.blockOnVulnerable` turns a finding into a stop.
 */
import { dependencyFindings, vulnerableFindings } from "../checks/dependency-findings.ts";
import { changesDependencies, suspectFiles } from "../checks/suspect-files.ts";
import type { FileStat } from "../git/git-client.ts";
import type { GitHubGateway } from "../github/index.ts";
import type { PreReviewChecks } from "../render/pre-review-checks.ts";

export async function runPreReviewChecks(
  gateway: Pick<GitHubGateway, "compareDependencies">,
  base: string,
  branch: string,
  files: readonly FileStat[],
): Promise<PreReviewChecks> {
  // No manifest changed, no dependency changed: the review is not worth a request.
  if (!changesDependencies(files)) return { suspectFiles: suspectFiles(files) };
  const review = await gateway.compareDependencies(base, branch);
  return {
    dependencies: review.available
      ? { available: true, findings: dependencyFindings(review.changes) }
      : { available: false, reason: review.reason },
    suspectFiles: suspectFiles(files),
  };
}

/** Why the task stops instead of opening its PR, when config blocks on a vulnerable dependency. */
export function vulnerableStop(checks: PreReviewChecks): string | undefined {
  if (!checks.dependencies?.available) return undefined;
  const vulnerable = vulnerableFindings(checks.dependencies.findings);
  if (vulnerable.length === 0) return undefined;
  const named = vulnerable
    .map(
      (finding) => `${finding.name}@${finding.to ?? ""} (${finding.advisories.map((a) => a.id).join(", ")})`,
    )
    .join(", ");
  return `the branch brings in dependencies with known vulnerabilities: ${named}; Locus did not open a pull request because pr.blockOnVulnerable is set (the work is on the branch)`;
}
