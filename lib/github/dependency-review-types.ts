/** What GitHub's dependency review answers, as Locus keeps it. */
/** A known advisory of a dependency, as the dependency review names it. */
export interface DependencyAdvisory {
  readonly severity: string;
  /** `GHSA-…` */
  readonly id: string;
  readonly summary: string;
  readonly url: string;
}

export interface DependencyChange {
  readonly change: "added" | "removed";
  readonly manifest: string;
  readonly ecosystem: string;
  readonly name: string;
  readonly version: string;
  readonly advisories: readonly DependencyAdvisory[];
}

/** What the dependency review said, or why it could not say. */
export type DependencyReview =
  | { readonly available: true; readonly changes: readonly DependencyChange[] }
  | { readonly available: false; readonly reason: string };
