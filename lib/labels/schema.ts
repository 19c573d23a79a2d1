/** The labels Locus owns: their names, colours and meaning (docs/contracts.md "Labels"). */

export type LabelGroup = "priority" | "type" | "status" | "order" | "agent";

export interface LabelDefinition {
  readonly name: string;
  /** Six hex digits without `#`, as GitHub's label API takes them. */
  readonly color: string;
  readonly description: string;
  readonly group: LabelGroup;
}

export const STATUSES = ["queued", "in-progress", "waiting", "in-review", "done", "failed"] as const;
export type Status = (typeof STATUSES)[number];

export const STATUS_PREFIX = "locus:";
export const ORDER_PREFIX = "order:";
export const MANAGED_LABEL = "agent:managed";

export function statusLabel(status: Status): string {
  return `${STATUS_PREFIX}${status}`;
}

const STATUS_LABELS: readonly LabelDefinition[] = [
  { name: statusLabel("queued"), color: "c2e0c6", description: "Waiting for a Locus agent", group: "status" },
  {
    name: statusLabel("in-progress"),
    color: "0e8a16",
    description: "A Locus agent is working on it",
    group: "status",
  },
  {
    name: statusLabel("waiting"),
    color: "e4b40c",
    description: "Locus asked a question on the issue; a writer's answer continues the work",
    group: "status",
  },
  {
    name: statusLabel("in-review"),
    color: "5ebd3e",
    description: "Pull request open, awaiting review",
    group: "status",
  },
  { name: statusLabel("done"), color: "1a7f37", description: "Merged", group: "status" },
  { name: statusLabel("failed"), color: "d73a4a", description: "The last Locus run failed", group: "status" },
];

/** Every label created on installation. `order:N` labels are never pre-created. */
export const LOCUS_LABELS: readonly LabelDefinition[] = [
  { name: "p:critical", color: "b60205", description: "Priority: critical", group: "priority" },
  { name: "p:high", color: "d93f0b", description: "Priority: high", group: "priority" },
  { name: "p:medium", color: "fbca04", description: "Priority: medium", group: "priority" },
  { name: "p:low", color: "fef2c0", description: "Priority: low", group: "priority" },
  { name: "type:feature", color: "0052cc", description: "New capability", group: "type" },
  { name: "type:bug", color: "1d76db", description: "Something is broken", group: "type" },
  { name: "type:chore", color: "5319e7", description: "Maintenance", group: "type" },
  {
    name: "type:refactor",
    color: "006b75",
    description: "Restructure without behaviour change",
    group: "type",
  },
  { name: "type:docs", color: "0075ca", description: "Documentation", group: "type" },
  ...STATUS_LABELS,
  { name: MANAGED_LABEL, color: "8a63d2", description: "Created or touched by Locus", group: "agent" },
];

export function orderLabel(order: number): LabelDefinition {
  return {
    name: `${ORDER_PREFIX}${order}`,
    color: "d4d4d4",
    description: "Position in the sprint",
    group: "order",
  };
}
