/** The slice of an issue that sprint rules read. */
export interface SprintIssue {
  readonly number: number;
  readonly labels: readonly string[];
  readonly state: "open" | "closed";
}
