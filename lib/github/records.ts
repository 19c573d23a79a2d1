// The plain records Locus reads GitHub's issues, comments, milestones and pull requests
// into. Apart from the gateway's types so that the read results built on them
// (task-types.ts) import no file that imports them back.

export type IssueState = "open" | "closed";

export type Comment = {
  id: number;
  /** GitHub's global id, for a write batched into one GraphQL request; absent where the source gave none. */
  nodeId?: string;
  body: string;
  author: string;
  authorType: string;
  authorAssociation: string;
  createdAt: string;
  updatedAt: string;
  url: string;
};

export type Issue = {
  number: number;
  /** GitHub's global id, for a write batched into one GraphQL request; absent where the source gave none. */
  nodeId?: string;
  title: string;
  body: string;
  state: IssueState;
  labels: string[];
  milestone: number | null;
  author: string;
  isPullRequest: boolean;
  url: string;
};

export type IssueWithComments = Issue & { comments: Comment[] };

export type Milestone = {
  number: number;
  title: string;
  description: string;
  state: IssueState;
  dueOn: string | null;
  openIssues: number;
  closedIssues: number;
  url: string;
};

export type PullRequest = {
  number: number;
  /** GitHub's global id, for a write batched into one GraphQL request. */
  nodeId?: string;
  title: string;
  body: string;
  state: IssueState;
  merged: boolean;
  draft: boolean;
  head: { ref: string; sha: string };
  base: { ref: string };
  author: string;
  url: string;
  /** The head branch is in another repository (a fork, or one since deleted): Locus never pushes there. */
  fromFork?: boolean;
};
