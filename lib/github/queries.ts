import { MANAGED_LABEL, ORDER_PREFIX, STATUS_PREFIX } from "../labels/schema.ts";
import { ANSWER_LANDED_QUERY, answerReviewFeedbackMutation } from "./answer-review-feedback.ts";
import {
  BRANCH_HEAD_QUERY,
  CREATE_COMMIT_ON_BRANCH_MUTATION,
  MOVE_BRANCH_MUTATION,
  REPOSITORY_ID_QUERY,
} from "./branch-commits.ts";
import { COMMENT_LANDED_QUERY } from "./comments.ts";
import { createLabelsMutation } from "./label-creation.ts";
import { writeMomentMutation } from "./moment-writes.ts";
import { LINKED_ISSUE_QUERY, PULL_REQUEST_FEEDBACK_QUERY } from "./pull-feedback.ts";
import { REVIEW_THREAD_COMMENTS_QUERY, REVIEW_THREADS_QUERY } from "./review-thread-pages.ts";
import { REPOSITORY_STATUS_QUERY } from "./repository-status-read.ts";
import { ISSUE_COMMENTS_QUERY } from "./task-fragments.ts";
import { SPRINT_TASKS_QUERY, TASK_ISSUE_QUERY, TASK_THREAD_QUERY } from "./task-read.ts";

// Every GraphQL document the gateway sends. Exported so a test can validate
// each one against GitHub's published schema.

/**
 * One page (100) of a milestone's issues, open and closed: `order:{max+1}`
 * counts them all. Labels are capped at 100 an issue, far above Locus's own.
 */
export const MILESTONE_ISSUES_QUERY = /* GraphQL */ `
  query MilestoneIssues($owner: String!, $name: String!, $milestone: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      statusLabels: labels(first: 20, query: ${JSON.stringify(STATUS_PREFIX)}) {
        nodes {
          id
          name
        }
      }
      managedLabel: label(name: ${JSON.stringify(MANAGED_LABEL)}) {
        id
        name
      }
      orderLabels: labels(first: 100, query: ${JSON.stringify(ORDER_PREFIX)}) {
        nodes {
          id
          name
        }
      }
      milestone(number: $milestone) {
        issues(first: 100, after: $after, orderBy: { field: CREATED_AT, direction: ASC }) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            id
            number
            title
            body
            state
            labels(first: 100) {
              nodes {
                id
                name
              }
            }
          }
        }
      }
    }
  }
`;

export const QUERIES = {
  MilestoneIssues: MILESTONE_ISSUES_QUERY,
  TaskIssue: TASK_ISSUE_QUERY,
  TaskThread: TASK_THREAD_QUERY,
  SprintTasks: SPRINT_TASKS_QUERY,
  IssueComments: ISSUE_COMMENTS_QUERY,
  PullRequestFeedback: PULL_REQUEST_FEEDBACK_QUERY,
  LinkedIssue: LINKED_ISSUE_QUERY,
  ReviewThreads: REVIEW_THREADS_QUERY,
  ReviewThreadComments: REVIEW_THREAD_COMMENTS_QUERY,
  RepositoryStatus: REPOSITORY_STATUS_QUERY,
  // Built per round; two threads, one resolved, stand for every shape.
  AnswerReviewFeedback: answerReviewFeedbackMutation([{ resolve: true }, { resolve: false }]),
  // A task's moments: every kind of write it batches.
  WriteMoment: writeMomentMutation(["pull-labels", "labels", "body", "comment", "new-comment"]),
  // Locus's missing labels, created once for a repository.
  CreateLabels: createLabelsMutation(2),
  // The "did it land?" reads after a create failed (create-once.ts).
  CommentLanded: COMMENT_LANDED_QUERY,
  AnswerReviewFeedbackLanded: ANSWER_LANDED_QUERY,
  // Commits GitHub signs (`commit.via: api`), and the look at a branch's head after one failed.
  CreateCommitOnBranch: CREATE_COMMIT_ON_BRANCH_MUTATION,
  BranchHead: BRANCH_HEAD_QUERY,
  MoveBranch: MOVE_BRANCH_MUTATION,
  RepositoryId: REPOSITORY_ID_QUERY,
} as const;
