/* eslint-disable @typescript-eslint/require-await -- the fake answers at once; async turns its throws into rejections, as GitHub's errors are */
/**
 * The fake's one-request reads (github-fake.ts): a task, a thread, a sprint,
 * built from the store as the real reads build them from one GraphQL answer,
 * each text with its edit history.
 */
import type {
  BodyRevision,
  EditHistory,
  RunAndSpend,
  TaskIssue,
  TaskReadOptions,
  TaskReads,
} from "../../lib/github/index.ts";
import {
  commentRecord,
  commentsOf,
  issueRecord,
  notModelled,
  pullRecord,
  type FakeIssue,
  type FakeStore,
} from "./github-fake-store.ts";

/** A body's edit history as GitHub's GraphQL `userContentEdits` gives it: every revision, none cut. */
export function history(createdAt: string, revisions: readonly BodyRevision[]): EditHistory {
  return {
    createdAt,
    lastEditedAt: revisions.at(-1)?.editedAt ?? null,
    revisions: [...revisions],
    includesCreated: revisions.length > 0,
    truncated: false,
  };
}

export function taskIssue(store: FakeStore, issue: FakeIssue): TaskIssue {
  return {
    ...issueRecord(store, issue),
    comments: commentsOf(store, issue.number).map((comment) => ({
      ...commentRecord(comment),
      history: history(comment.createdAt, comment.revisions),
    })),
    history: history(issue.createdAt, issue.bodyRevisions),
    ...(issue.pull ? {} : { timeline: { events: [...issue.timeline], truncated: false } }),
  };
}

/** The run's creation time and, when asked, the status comments on managed issues changed since then. */
export function runAndSpend(store: FakeStore, options: TaskReadOptions): RunAndSpend {
  const run = store.workflowRuns.find((candidate) => candidate.url === options.runUrl);
  const since = options.spendSince;
  const spend =
    since === undefined
      ? null
      : [...store.issues.values()]
          .filter((issue) => issue.labels.has(options.managedLabel) && issue.updatedAt >= since)
          .flatMap((issue) => commentsOf(store, issue.number))
          .filter((comment) => comment.body.startsWith("<!-- locus:status"))
          .map((comment) => ({
            body: comment.body,
            author: comment.author,
            viewerDidAuthor: comment.author === store.self,
          }));
  return { defaultBranch: store.defaultBranch, runCreatedAt: run?.createdAt ?? null, spend };
}

export function fakeTaskReads(store: FakeStore): TaskReads {
  return {
    async readTask(number, options) {
      store.record("readTask", [number, options]);
      const issue = store.issues.get(number);
      const isPullRequest = issue?.pull !== null && issue !== undefined;
      return {
        ...runAndSpend(store, options),
        issue: issue && !isPullRequest ? taskIssue(store, issue) : null,
        isPullRequest,
      };
    },
    async readThread(number, options) {
      store.record("readThread", [number, options]);
      const issue = store.issues.get(number);
      return {
        ...runAndSpend(store, options),
        thread: issue ? { ...taskIssue(store, issue), pullRequest: pullRecord(store, issue) } : null,
      };
    },
    async readSprint(number, options) {
      store.record("readSprint", [number, options]);
      const milestone = store.milestones.get(number);
      const all = [...store.issues.values()];
      return {
        ...runAndSpend(store, options),
        milestone: milestone
          ? {
              number,
              title: milestone.title,
              description: milestone.description,
              state: milestone.state,
              dueOn: milestone.dueOn,
              url: milestone.url,
            }
          : null,
        issues: milestone
          ? all
              .filter((issue) => issue.milestone === number && !issue.pull)
              .map((issue) => taskIssue(store, issue))
          : [],
        managedOpen: all
          .filter((issue) => issue.state === "open" && issue.labels.has(options.managedLabel))
          .reverse()
          .map((issue) => ({
            number: issue.number,
            nodeId: issue.nodeId,
            title: issue.title,
            author: issue.author,
            labels: [...issue.labels],
          })),
      };
    },
    async readRepositoryStatus(options) {
      store.record("readRepositoryStatus", [options]);
      throw notModelled("readRepositoryStatus");
    },
  };
}
