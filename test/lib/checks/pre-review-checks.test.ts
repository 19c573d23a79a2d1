import { describe, expect, it } from "vitest";
import { dependencyFindings, vulnerableFindings } from "../../../lib/checks/dependency-findings.ts";
import { changesDependencies, LARGE_FILE_LINES, suspectFiles } from "../../../lib/checks/suspect-files.ts";
import type { DependencyChange } from "../../../lib/github/index.ts";
import { renderPreReviewChecks } from "../../../lib/render/pre-review-checks.ts";
import { root } from "../../../lib/render/tree/nodes.ts";
import { toGitHubMarkdown } from "../../../lib/render/tree/serialize.ts";
import { vulnerableStop } from "../../../lib/task/pre-review-checks.ts";

const advisory = {
  severity: "high",
  id: "GHSA-aaaa-bbbb-cccc",
  summary: "Bad",
  url: "https://github.com/advisories/GHSA-aaaa-bbbb-cccc",
};
const entry = (
  change: "added" | "removed",
  name: string,
  version: string,
  advisories = [] as DependencyChange["advisories"],
): DependencyChange => ({
  change,
  manifest: "package.json",
  ecosystem: "npm",
  name,
  version,
  advisories,
});
const stat = (path: string, additions = 1) => ({ path, additions, deletions: 0 });

describe("dependency findings", () => {
  it("pairs a removal and an addition of one name as an update, and keeps only the added version's advisories", () => {
    const findings = dependencyFindings([
      entry("removed", "zod", "3.0.0", [advisory]),
      entry("added", "zod", "4.1.0"),
      entry("added", "left-pad", "1.0.0", [advisory]),
      entry("removed", "chalk", "5.0.0"),
    ]);
    expect(findings.map(({ name, from, to }) => [name, from, to])).toEqual([
      ["chalk", "5.0.0", undefined],
      ["left-pad", undefined, "1.0.0"],
      ["zod", "3.0.0", "4.1.0"],
    ]);
    expect(vulnerableFindings(findings).map((f) => f.name)).toEqual(["left-pad"]);
  });
});

describe("suspect files", () => {
  it("reports minified, vendored, huge files and a lockfile whose manifest did not change", () => {
    const found = suspectFiles([
      stat("src/app.ts", 40),
      stat("public/app.min.js"),
      stat("vendor/lib/a.go"),
      stat("data/generated.ts", LARGE_FILE_LINES + 1),
      stat("package-lock.json", 900),
      stat("web/yarn.lock"),
      stat("web/package.json"),
    ]);
    expect(found.map((f) => f.path)).toEqual([
      "public/app.min.js",
      "vendor/lib/a.go",
      "data/generated.ts",
      "package-lock.json",
    ]);
    expect(found[3]?.why).toBe("lockfile changed while package.json did not");
  });

  it("asks the dependency review only when a manifest, lockfile or workflow changed", () => {
    expect(changesDependencies([stat("src/a.ts"), stat("README.md")])).toBe(false);
    expect(changesDependencies([stat("sub/package.json")])).toBe(true);
    expect(changesDependencies([stat(".github/workflows/ci.yml")])).toBe(true);
    expect(changesDependencies([stat("go.sum")])).toBe(true);
  });
});

describe("the checks in a PR body", () => {
  const render = (checks: Parameters<typeof renderPreReviewChecks>[0]) =>
    toGitHubMarkdown(root(renderPreReviewChecks(checks)));

  it("says nothing when no manifest changed and no file looks generated", () => {
    expect(renderPreReviewChecks({ suspectFiles: [] })).toEqual([]);
  });

  it("warns about a vulnerable dependency, with the advisory linked, and keeps hostile names inert", () => {
    const text = render({
      dependencies: {
        available: true,
        findings: dependencyFindings([
          entry("added", "a` @octocat fixes #1 `b", "1.0.0", [{ ...advisory, summary: "see @admin" }]),
        ]),
      },
      suspectFiles: [{ path: "x`y @team/x.min.js", why: "looks minified" }],
    });
    expect(text).toContain("> [!WARNING]");
    expect(text).toContain("[GHSA-aaaa-bbbb-cccc](https://github.com/advisories/GHSA-aaaa-bbbb-cccc) (high)");
    expect(text).toContain("``a` @octocat fixes #1 `b``");
    expect(text).not.toMatch(/(^|[^`\w])@admin/);
    expect(text).toContain("``x`y @team/x.min.js``");
  });

  it("says when the review could not run", () => {
    const text = render({
      dependencies: { available: false, reason: "GitHub answered 403: no graph" },
      suspectFiles: [],
    });
    expect(text).toContain("Dependency review could not run");
    expect(text).toContain("GitHub answered 403: no graph");
  });

  it("stops the task only for a vulnerable dependency the branch brings in", () => {
    const vulnerable = {
      available: true as const,
      findings: dependencyFindings([entry("added", "left-pad", "1.0.0", [advisory])]),
    };
    expect(vulnerableStop({ dependencies: vulnerable, suspectFiles: [] })).toMatch(
      /^the branch brings in dependencies with known vulnerabilities: left-pad@1\.0\.0 \(GHSA-aaaa-bbbb-cccc\)/,
    );
    const removedOnly = {
      available: true as const,
      findings: dependencyFindings([entry("removed", "left-pad", "1.0.0", [advisory])]),
    };
    expect(vulnerableStop({ dependencies: removedOnly, suspectFiles: [] })).toBeUndefined();
    expect(vulnerableStop({ suspectFiles: [] })).toBeUndefined();
  });
});
