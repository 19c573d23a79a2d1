/** What the `/locus status` reply shows: the repository at a glance, as plain data (repository-status.ts renders it). */
export interface StatusLink {
  readonly number: number;
  readonly url: string;
}

export interface StatusSprint {
  readonly title: string;
  readonly url: string;
  readonly completed: number;
  readonly total: number;
  /**
   * `running` while a task is in progress; `asking` while a task waits for an answer; `stopped` on a
   * failed task; `waiting` for work to be queued.
   */
  readonly state: "running" | "asking" | "stopped" | "waiting" | "finished";
  readonly trackingIssue?: StatusLink;
}

export interface StatusTask extends StatusLink {
  readonly title: string;
  /** The title of its milestone. */
  readonly sprint?: string;
  readonly attempts: number;
  readonly pr?: number;
  readonly lastError?: string;
}

/** A task whose agent asked: its questions (the agent's words) and how long ago it asked. */
export interface StatusWaitingTask extends StatusTask {
  readonly questions: readonly string[];
  /** Undefined when its status comment does not say when it asked. */
  readonly waitedMs?: number;
}

export interface StatusPullRequest extends StatusLink {
  readonly title: string;
  /** The issue it closes (its branch `locus/issue-<N>`). */
  readonly issue?: number;
}

/** The issue the command was posted on. */
export type StatusAbout =
  | { readonly number: number; readonly status: undefined }
  | {
      readonly number: number;
      readonly status: string;
      readonly pr?: number;
      readonly runUrl?: string;
      readonly attempts: number;
      /** Set while it waits for an answer. */
      readonly waitedMs?: number;
    };

export interface RepositoryStatus {
  /** `owner/name`. */
  readonly repository: string;
  readonly about?: StatusAbout;
  readonly sprints: readonly StatusSprint[];
  /** Open milestones not read (beyond GitHub's first page). */
  readonly moreMilestones: number;
  readonly running: readonly StatusTask[];
  readonly queued: readonly StatusTask[];
  readonly waiting: readonly StatusWaitingTask[];
  readonly failed: readonly StatusTask[];
  /** Tasks not read (beyond GitHub's first page). */
  readonly moreTasks: number;
  readonly pullRequests: readonly StatusPullRequest[];
  readonly morePullRequests: number;
  /** The GitHub API budget: null when GitHub did not report it. */
  readonly budget: { readonly limit: number; readonly remaining: number; readonly resetAt: string } | null;
}
