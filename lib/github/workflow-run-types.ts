// The gateway's view of GitHub Actions workflow runs: their statuses, a run as
// listed, the run a dispatch started and the filter a listing takes. Types only,
// apart from types.ts because the app's dispatch and sweep read only these.

export type WorkflowRunStatus =
  | "queued"
  | "in_progress"
  | "completed"
  | "waiting"
  | "requested"
  | "pending"
  | "action_required"
  | "cancelled"
  | "failure"
  | "neutral"
  | "skipped"
  | "stale"
  | "success"
  | "timed_out";

export type WorkflowRun = {
  id: number;
  name: string | null;
  displayTitle: string;
  status: string | null;
  conclusion: string | null;
  event: string;
  headBranch: string | null;
  url: string;
  createdAt: string;
};

/** The run a dispatch started: its id and its page on GitHub. */
export type DispatchedRun = {
  id: number;
  url: string;
};

export type WorkflowRunFilter = {
  status?: WorkflowRunStatus;
  branch?: string;
  event?: string;
  perPage?: number;
};
