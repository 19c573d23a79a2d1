/**
 * The records behind the fake's pull request rounds (github-fake-store.ts
 * holds them): reviews with their edit histories, review threads with their
 * line comments, and CI's check runs with steps, annotations and logs. Types
 * only, apart so the store's file stays one screen of plain data.
 */
import type { BodyRevision, CiAnnotationRead, Review, ReviewComment } from "../../lib/github/index.ts";

export type FakeReview = Review & {
  updatedAt: string;
  /** Every text the review's body had, oldest first, once it was edited. */
  revisions: BodyRevision[];
};

/** A line comment: the first of a thread, or a reply in it. */
export type FakeReviewComment = ReviewComment & {
  nodeId: string;
  revisions: BodyRevision[];
};

/** A line conversation; its `id` is the node id replying and resolving take. */
export interface FakeThread {
  id: string;
  isResolved: boolean;
  /** Who resolved it (GitHub shows it on the thread). */
  resolvedBy: string | null;
  isOutdated: boolean;
  path: string;
  line: number | null;
  comments: FakeReviewComment[];
}

/** A step of a workflow job: its name, how it ended, and the lines it printed. */
export interface FakeCiStep {
  name: string;
  conclusion: string;
  output: string[];
}

/** A check run; a workflow job is one too (its id is the job's id), with steps and a log. */
export interface FakeCheckRun {
  id: number;
  name: string;
  headSha: string;
  /** The workflow run (for a job) or the check suite the check run belongs to. */
  suiteId: number;
  conclusion: string;
  output: { title: string | null; summary: string | null; text: string | null };
  annotations: CiAnnotationRead[];
  /** Set when the check run is a workflow job. */
  steps: FakeCiStep[] | null;
  /** The job's log as GitHub serves it; null once GitHub no longer has it. */
  log: string | null;
}
