/**
 * What a branch does to its dependencies, from the dependency review's list
 * of added and removed entries: a name removed and added again in the same
 * manifest is an update, and any dependency the branch brings in with a
 * known advisory is vulnerable. Pure: the list in, the findings out.
 */
import type { DependencyAdvisory, DependencyChange } from "../github/index.ts";

export interface DependencyFinding {
  readonly manifest: string;
  readonly ecosystem: string;
  readonly name: string;
  /** The version on the base; absent for a new dependency. */
  readonly from?: string;
  /** The version on the branch; absent for a removed dependency. */
  readonly to?: string;
  /** Known advisories of the version the branch brings in. */
  readonly advisories: readonly DependencyAdvisory[];
}

export function dependencyFindings(changes: readonly DependencyChange[]): DependencyFinding[] {
  const key = (change: DependencyChange): string =>
    `${change.manifest}\u0000${change.ecosystem}\u0000${change.name}`;
  const removed = new Map(changes.filter((c) => c.change === "removed").map((c) => [key(c), c]));
  const findings: DependencyFinding[] = [];
  for (const added of changes.filter((c) => c.change === "added")) {
    const before = removed.get(key(added));
    removed.delete(key(added));
    findings.push({
      manifest: added.manifest,
      ecosystem: added.ecosystem,
      name: added.name,
      ...(before ? { from: before.version } : {}),
      to: added.version,
      advisories: added.advisories,
    });
  }
  for (const gone of removed.values()) {
    findings.push({
      manifest: gone.manifest,
      ecosystem: gone.ecosystem,
      name: gone.name,
      from: gone.version,
      advisories: [],
    });
  }
  return findings.sort((a, b) => a.manifest.localeCompare(b.manifest) || a.name.localeCompare(b.name));
}

export function vulnerableFindings(findings: readonly DependencyFinding[]): DependencyFinding[] {
  return findings.filter((finding) => finding.to !== undefined && finding.advisories.length > 0);
}
