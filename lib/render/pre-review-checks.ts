/**
 * The "Checks before review" part of a PR body: what the dependency review
 * found (or why it could not run) and the files that look generated or
 * vendored. Names, versions and paths come from the branch the agent wrote,
 * so they are code in the tree; advisory links come from GitHub.
 */
import type { BlockContent } from "mdast";
import { vulnerableFindings, type DependencyFinding } from "../checks/dependency-findings.ts";
import type { SuspectFile } from "../checks/suspect-files.ts";
import {
  blockquote,
  code,
  heading,
  link,
  list,
  paragraph,
  plain,
  table,
  text,
  trustedHtml,
  type Inline,
} from "./tree/nodes.ts";

export interface PreReviewChecks {
  /** Absent when the branch changes no dependency manifest. */
  readonly dependencies?:
    | { readonly available: true; readonly findings: readonly DependencyFinding[] }
    | { readonly available: false; readonly reason: string };
  readonly suspectFiles: readonly SuspectFile[];
}

/** Nothing when there is nothing to say: no manifest changed and no file looks generated. */
export function renderPreReviewChecks(checks: PreReviewChecks): BlockContent[] {
  if (!checks.dependencies && checks.suspectFiles.length === 0) return [];
  return [
    heading(2, "Checks before review"),
    ...(checks.dependencies ? renderDependencies(checks.dependencies) : []),
    ...renderSuspects(checks.suspectFiles),
  ];
}

function renderDependencies(dependencies: NonNullable<PreReviewChecks["dependencies"]>): BlockContent[] {
  if (!dependencies.available) {
    return [
      paragraph(
        `Dependency review could not run, so new dependencies were not checked for known vulnerabilities: `,
        plain(dependencies.reason),
      ),
    ];
  }
  const { findings } = dependencies;
  if (findings.length === 0)
    return [paragraph("Dependency review: no dependency added, updated or removed.")];
  const vulnerable = vulnerableFindings(findings);
  const rows = findings.map((finding) => [
    [code(finding.name)],
    [code(finding.manifest)],
    change(finding),
    advisories(finding),
  ]);
  return [
    vulnerable.length > 0 &&
      blockquote(
        paragraph(
          trustedHtml("[!WARNING]"),
          text("\n"),
          `${vulnerable.length === 1 ? "A dependency this branch brings in has" : `${vulnerable.length} dependencies this branch brings in have`} known vulnerabilities.`,
        ),
      ),
    paragraph("Dependency review:"),
    table(
      [null, null, null, null],
      [[["Dependency"], ["Manifest"], ["Change"], ["Known vulnerabilities"]], ...rows],
    ),
  ].filter((block): block is BlockContent => block !== false);
}

function change(finding: DependencyFinding): Inline[] {
  if (finding.from === undefined) return ["added ", code(finding.to ?? "")];
  if (finding.to === undefined) return ["removed ", code(finding.from)];
  return [code(finding.from), " → ", code(finding.to)];
}

function advisories(finding: DependencyFinding): Inline[] {
  if (finding.to === undefined || finding.advisories.length === 0) return ["none known"];
  return finding.advisories.flatMap((advisory, index) => [
    ...(index > 0 ? ["; "] : []),
    link(advisory.url, advisory.id),
    ` (${plainSeverity(advisory.severity)}): `,
    plain(advisory.summary),
  ]);
}

function plainSeverity(severity: string): string {
  return /^[a-z]+$/i.test(severity) ? severity.toLowerCase() : "unknown severity";
}

function renderSuspects(files: readonly SuspectFile[]): BlockContent[] {
  if (files.length === 0) return [];
  return [
    paragraph("Files to look at before merging (reported, not removed):"),
    list(files.map((file) => [code(file.path), ` — ${file.why}`])),
  ];
}
