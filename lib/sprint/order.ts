/** `order:N` labels: parsing, sorting, and the order a newly added issue gets. */
import { ORDER_PREFIX } from "../labels/schema.ts";
import type { SprintIssue } from "./sprint-issue.ts";

const ORDER_PATTERN = /^order:([1-9][0-9]{0,8})$/;

export function parseOrder(label: string): number | undefined {
  const match = ORDER_PATTERN.exec(label);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

export function isOrderLabel(label: string): boolean {
  return label.startsWith(ORDER_PREFIX);
}

/** An issue with several order labels runs at the lowest of them. */
export function orderOf(labels: readonly string[]): number | undefined {
  const orders = labels.map(parseOrder).filter((order) => order !== undefined);
  return orders.length === 0 ? undefined : Math.min(...orders);
}

export interface OrderedIssues<T extends SprintIssue> {
  /** Sorted by order, numerically; gaps are fine; ties broken by issue number. */
  readonly ordered: ReadonlyArray<{ issue: T; order: number }>;
  /** Issues with no order label, by issue number: run last and reported. */
  readonly unordered: readonly T[];
}

export function sortByOrder<T extends SprintIssue>(issues: readonly T[]): OrderedIssues<T> {
  const ordered: Array<{ issue: T; order: number }> = [];
  const unordered: T[] = [];
  for (const issue of issues) {
    const order = orderOf(issue.labels);
    if (order === undefined) unordered.push(issue);
    else ordered.push({ issue, order });
  }
  ordered.sort((a, b) => a.order - b.order || a.issue.number - b.issue.number);
  unordered.sort((a, b) => a.number - b.number);
  return { ordered, unordered };
}

/** `max + 1` over every issue of the milestone, open or closed (docs/architecture.md "Ordering"). */
export function nextOrder(issues: readonly SprintIssue[]): number {
  let max = 0;
  for (const issue of issues) max = Math.max(max, orderOf(issue.labels) ?? 0);
  return max + 1;
}

/** The label set with `order` as the only order label; other labels kept in place. */
export function withOrder(labels: readonly string[], order: number): string[] {
  return [...labels.filter((label) => !isOrderLabel(label)), `${ORDER_PREFIX}${order}`];
}
