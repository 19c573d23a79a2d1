/**
 * GitHub's dependency review: which dependencies a branch adds or removes
 * against its base, and the known advisories of each, from the dependency
 * graph (https://docs.github.com/en/rest/dependency-graph/dependency-review).
 * A repository without the dependency graph (or, when private, without
 * GitHub Advanced Security) answers 403 or 404: that is a check that could
 * not run, said as such, never a failed task.
 */
import { z } from "zod";
import { statusOf } from "./errors.ts";
import type { Transport } from "./transport-types.ts";
import type { DependencyReview } from "./dependency-review-types.ts";
import type { GitHubGateway } from "./types.ts";

const changesSchema = z.array(
  z.object({
    change_type: z.enum(["added", "removed"]),
    manifest: z.string(),
    ecosystem: z.string(),
    name: z.string(),
    version: z.string(),
    scope: z.string().optional(),
    vulnerabilities: z
      .array(
        z.object({
          severity: z.string(),
          advisory_ghsa_id: z.string(),
          advisory_summary: z.string(),
          advisory_url: z.string(),
        }),
      )
      .default([]),
  }),
);

export function dependencyReviewOps(t: Transport): Pick<GitHubGateway, "compareDependencies"> {
  return {
    async compareDependencies(base, head): Promise<DependencyReview> {
      try {
        const changes = await t.rest(
          "GET /repos/{owner}/{repo}/dependency-graph/compare/{basehead}",
          { basehead: `${base}...${head}` },
          changesSchema,
        );
        return {
          available: true,
          changes: changes.map((change) => ({
            change: change.change_type,
            manifest: change.manifest,
            ecosystem: change.ecosystem,
            name: change.name,
            version: change.version,
            advisories: change.vulnerabilities.map((found) => ({
              severity: found.severity,
              id: found.advisory_ghsa_id,
              summary: found.advisory_summary,
              url: found.advisory_url,
            })),
          })),
        };
      } catch (error) {
        const status = statusOf(error);
        if (status !== 403 && status !== 404) throw error;
        const message = error instanceof Error ? error.message : String(error);
        return { available: false, reason: `GitHub answered ${status}: ${message}` };
      }
    },
  };
}
