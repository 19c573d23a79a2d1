// What `/locus status` reads of the whole repository: the result and its options,
// types only, so the gateway's types (types.ts) name them without importing the read.
import type { SpendComment } from "./task-types.ts";

export type StatusMilestone = {
  number: number;
  title: string;
  url: string;
  /** Open issues, and closed ones that are completed: the sprint's tasks. */
  tasks: number;
  completed: number;
  /** Issues, open or closed, carrying any Locus status: the milestone is a sprint. */
  withStatus: number;
};

export type StatusIssue = {
  number: number;
  title: string;
  url: string;
  labels: string[];
  milestone: number | null;
  /** The issue's first comments, where its status comment is. */
  comments: SpendComment[];
};

export type RepositoryStatusRead = {
  milestones: StatusMilestone[];
  /** Open milestones beyond the first page. */
  moreMilestones: number;
  /** Open issues in an active Locus status (`options.activeLabels`). */
  tasks: StatusIssue[];
  moreTasks: number;
  /** Open managed issues (tracking issues among them), newest first. */
  managedOpen: { number: number; title: string; url: string }[];
  pullRequests: { number: number; title: string; url: string; headRef: string }[];
  morePullRequests: number;
  /** The issue the command was posted on; null for a pull request. */
  about: { number: number; labels: string[]; comments: SpendComment[] } | null;
  /** The GraphQL budget; null when GitHub did not say. */
  rateLimit: { limit: number; remaining: number; resetAt: string } | null;
};

export type RepositoryStatusOptions = {
  /** The issue or pull request the command was posted on. */
  about: number;
  /** Every Locus status label: a milestone with an issue in one is a sprint. */
  statusLabels: readonly string[];
  /** The statuses whose issues are listed: queued, in progress, waiting, failed, in review. */
  activeLabels: readonly string[];
  /** The statuses that count as completed for a sprint's progress. */
  completedLabels: readonly string[];
  managedLabel: string;
};
