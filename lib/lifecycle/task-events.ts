/**
 * The words of a task's lifecycle (lifecycle.ts): its state, the events that
 * happen to it, and the effects a step answers, all plain data.
 */
import type { FailureCommentInput } from "../render/failure-comment.ts";
import type { Status } from "../labels/schema.ts";
import type { CiFixState, StatusState, StatusView } from "../status/status-comment.ts";

/** An issue's labels (its status is the one `locus:*` among them) and its status comment's hidden state. */
export type TaskState = StatusState & { readonly labels: readonly string[] };

export type Effect =
  /** The whole new label set: one write, never remove-then-add. */
  | { readonly kind: "labels"; readonly labels: readonly string[] }
  /** The status comment, shown as `view`, holding `state`. */
  | { readonly kind: "status"; readonly view: StatusView; readonly state: StatusState }
  /**
   * One label taken off on its own (GitHub's "remove a label"): a claim two sweeps race for, since
   * GitHub removes it for one and answers the other 404, or a label someone without write access added.
   */
  | { readonly kind: "remove-label"; readonly label: string }
  /** A new comment on the issue; posted after the moment's other writes. */
  | {
      readonly kind: "comment";
      readonly role: "failure" | "question" | "refusal" | "outcome";
      readonly body: string;
    };

/** What a spend adds: to the task's cost and to the spend on that UTC day (the daily cap's tally). */
export interface Spend {
  readonly usd: number;
  readonly at: Date;
}

/**
 * The events that move only the labels (label-steps.ts): the app's and the stale sweep's. The status
 * comment keeps what the Action (or the dispatch that follows) records.
 */
export type LabelEvent =
  /** A writer answered a waiting task: it is queued again, and the answerer is who a next question mentions. */
  | { readonly kind: "answered"; readonly by: string }
  /** A person's `/locus cancel`: the status is cleared (refused when no status the machine can clear is on). */
  | { readonly kind: "cancel-requested" }
  /** The task's PR was closed without merging: no longer in review, and not completed (refused otherwise). */
  | { readonly kind: "pr-closed-unmerged" }
  /** The app refused to dispatch the task's run (the request cannot be sent): a queued or running task fails. */
  | { readonly kind: "dispatch-refused" }
  /** The task's PR merged into the default branch: the task is done (refused once it is). */
  | { readonly kind: "pr-merged" }
  /**
   * The app saw a Locus workflow run end (failed, cancelled, timed out) before the Action recorded an
   * end itself: the task fails, with the run's link. Refused when the task is no longer queued or in
   * progress (the Action said how it ended, or a person cancelled it).
   */
  | { readonly kind: "run-ended"; readonly runUrl: string; readonly conclusion: string; readonly wip: string }
  /** The stale sweep retries a failure Locus recorded (an attempt in its own status comment), within the budget. */
  | { readonly kind: "retried"; readonly budget: number }
  /** The stale sweep puts back a task in progress with no live run. */
  | { readonly kind: "stale-requeued" }
  /**
   * A writer asked for the work: the `locus:queued` label (`byLabel`; the task's labels are GitHub's,
   * that label included) or `/locus run`. A task the daily cost cap holds is let through as it is.
   * Refused with the reason the writer is told; a refusal by label undoes the label.
   */
  | { readonly kind: "queue-requested"; readonly byLabel: boolean }
  /**
   * The task's milestone was marked active: it gets `order` when it has no order yet, and is queued
   * unless it is queued or in progress already. Refused for completed work.
   */
  | { readonly kind: "sprint-activated"; readonly order?: number | undefined }
  /**
   * The stale sweep claims the task by taking its `from` status off (refused when the task does not
   * carry it): of two sweeps at once, GitHub removes the label for one only.
   */
  | { readonly kind: "sweep-claimed"; readonly from: Status }
  /** A sweep that lost a race or failed after its claim puts the labels back as it read them. */
  | { readonly kind: "claim-restored"; readonly labels: readonly string[] }
  /** Someone without write access added a status label that steers Locus: it is taken off again. */
  | { readonly kind: "label-refused"; readonly label: string };

/**
 * The events that write only the status comment, recording what the app or the sweep did for the task:
 * nothing here moves a label.
 */
export type RecordEvent =
  /**
   * A run was dispatched (or its dispatch refused for good) for these deliveries: they are recorded,
   * so a redelivery finds them. `runUrl`: the run GitHub named; `null` clears an earlier run's link
   * (it would mislead); absent keeps it. The requester and the CI-fix streak are remembered with it.
   */
  | {
      readonly kind: "dispatch-recorded";
      readonly headline: string;
      readonly deliveries: readonly string[];
      readonly runUrl?: string | null | undefined;
      readonly requester?: string | undefined;
      readonly ci?: CiFixState | undefined;
    }
  /** The CI-failure streak on the task's PR went on too long, or a person acted: no fix-ci round runs. */
  | { readonly kind: "ci-fix-stopped"; readonly headline: string; readonly ci: CiFixState };

export type TaskEvent =
  | LabelEvent
  | RecordEvent
  /** A read-only run (plan, review, ask) on the issue or PR starts: no status label moves. */
  | {
      readonly kind: "read-only-started";
      readonly headline: string;
      readonly runUrl?: string | undefined;
      readonly unsandboxed: boolean;
    }
  /**
   * The read-only run ends: its cost added to the day's spend, and to the task's cost when `taskCost`
   * (an answer to a question is not work on the task); `comment`, when there is one, says why it
   * produced nothing.
   */
  | ({
      readonly kind: "read-only-finished";
      readonly headline: string;
      readonly taskCost: boolean;
      readonly comment?: string | undefined;
    } & Spend)
  /** A run starts the task: one attempt more, the last attempt's error and question gone. */
  | {
      readonly kind: "started";
      readonly runUrl?: string | undefined;
      readonly unsandboxed: boolean;
      /** What setup runs before the agent, as the status comment says it (Locus's own Markdown). */
      readonly setup?: string | undefined;
      /** The model a writer chose with `model=<id>`, shown in the status comment; absent for the configured one. */
      readonly model?: string | undefined;
    }
  /** What the agent is doing now (the live status line). */
  | { readonly kind: "progress"; readonly view: StatusView }
  /** Money spent before the task's end (resolving a checkpoint's conflicts). */
  | ({ readonly kind: "spent" } & Spend)
  | ({
      readonly kind: "delivered";
      readonly pr: number;
      /** The artifact page of this task's session record, when it was uploaded. */
      readonly recordUrl?: string;
    } & Spend)
  | ({
      readonly kind: "failed";
      /** The reason, as it may be published. */
      readonly reason: string;
      readonly checkpoint?: string | undefined;
      /** The failure comment's other facts: the log's tail, the run, what the agent said. */
      readonly comment: Omit<FailureCommentInput, "reason" | "checkpoint">;
    } & Spend)
  /** The agent asked: the questions go on the issue, then `question-posted` records where. */
  | ({
      readonly kind: "asked";
      readonly questions: readonly string[];
      /** Who the question mentions: whoever asked for the work. */
      readonly requester?: string | undefined;
      readonly checkpoint?: string | undefined;
    } & Spend)
  | {
      readonly kind: "question-posted";
      readonly questions: readonly string[];
      readonly commentId: number;
      readonly askedAt: string;
    }
  /** The run found its issue cleared by `/locus cancel` (`labels`, as read now): no failure, no retry. */
  | ({
      readonly kind: "cancelled";
      readonly labels: readonly string[];
      readonly checkpoint?: string | undefined;
    } & Spend)
  /** Not started for the daily cost cap: said once a UTC day, nothing else changes. */
  | { readonly kind: "over-budget"; readonly reason: string; readonly at: Date }
  /** Not started for a model with no price: the status is cleared until a person fixes the config. */
  | { readonly kind: "unpriced-refused"; readonly reason: string }
  /** An iterate or fix-ci round on the task's open PR starts. */
  | {
      readonly kind: "round-started";
      readonly headline: string;
      readonly runUrl?: string | undefined;
      readonly unsandboxed: boolean;
    }
  /** The round ends: back in review (`deliver`, also when nothing changed) or failed. */
  | ({
      readonly kind: "round-finished";
      readonly outcome: "deliver" | "fail";
      readonly headline: string;
      readonly lastError?: string | undefined;
    } & Spend)
  /** A rebase of the task's PR (and the PRs stacked on it) starts: out of review if it is in review. */
  | {
      readonly kind: "restack-started";
      readonly headline: string;
      readonly runUrl?: string | undefined;
      readonly unsandboxed: boolean;
    }
  /** The rebase ends: back in review when `resume` (this run took the task out of review), its cost added. */
  | ({ readonly kind: "restack-finished"; readonly resume: boolean; readonly headline: string } & Spend);

/** The task's next state and the writes that say so on GitHub. */
export interface Moved {
  readonly state: TaskState;
  readonly effects: readonly Effect[];
}

export type Step =
  | Moved
  | {
      readonly refused: string;
      /** What is still written though the event does not apply: the label a refused sender added, taken off. */
      readonly undo?: Moved;
    };
