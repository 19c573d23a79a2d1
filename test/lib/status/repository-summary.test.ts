import { describe, expect, it } from "vitest";
import type { RepositoryStatusRead, StatusIssue } from "../../../lib/github/index.ts";
import { summarizeRepository } from "../../../lib/status/repository-summary.ts";
import { renderStatusComment, type StatusState } from "../../../lib/status/status-comment.ts";

const NOW = new Date("2026-11-24T12:00:00Z");
const options = { repository: "o/r", selfLogins: ["locus[bot]"], about: 1, now: NOW };

function statusBody(state: Partial<StatusState>): string {
  return `<!-- locus:status -->\n${renderStatusComment({ headline: "Working" }, { deliveries: [], attempts: 0, ...state })}`;
}

function issue(number: number, labels: string[], extra: Partial<StatusIssue> = {}): StatusIssue {
  return { number, title: `T${number}`, url: `u/${number}`, labels, milestone: null, comments: [], ...extra };
}

function read(extra: Partial<RepositoryStatusRead>): RepositoryStatusRead {
  return {
    milestones: [],
    moreMilestones: 0,
    tasks: [],
    moreTasks: 0,
    managedOpen: [],
    pullRequests: [],
    morePullRequests: 0,
    about: null,
    rateLimit: null,
    ...extra,
  };
}

const milestone = (number: number, title: string, completed: number, tasks: number, withStatus = 1) => ({
  number,
  title,
  url: `m/${number}`,
  completed,
  tasks,
  withStatus,
});

describe("summarizeRepository", () => {
  it("reads a task's attempts, PR and error only from a status comment Locus wrote", () => {
    const copied = { body: statusBody({ attempts: 9, pr: 99 }), author: "mallory", viewerDidAuthor: false };
    const summary = summarizeRepository(
      read({
        tasks: [
          issue(2, ["locus:failed"], {
            comments: [
              copied,
              {
                body: statusBody({ attempts: 2, lastError: "boom" }),
                author: "locus",
                viewerDidAuthor: false,
              },
            ],
          }),
          issue(3, ["locus:failed"], { comments: [copied] }),
          issue(4, ["locus:queued"], {
            comments: [
              { body: statusBody({ attempts: 1 }), author: "github-actions", viewerDidAuthor: false },
            ],
          }),
          issue(5, ["locus:in-progress"], {
            comments: [{ body: statusBody({ pr: 7 }), author: "some-app", viewerDidAuthor: true }],
          }),
          issue(6, ["locus:in-review"]),
        ],
      }),
      options,
    );
    expect(
      summary.failed.map(({ number, attempts, lastError }) => ({ number, attempts, lastError })),
    ).toEqual([
      { number: 2, attempts: 2, lastError: "boom" },
      { number: 3, attempts: 0, lastError: undefined },
    ]);
    expect(summary.queued.map((task) => task.attempts)).toEqual([1]);
    expect(summary.running.map((task) => task.pr)).toEqual([7]);
  });

  it("lists as sprints the milestones with Locus work, each in its state and with its tracking issue", () => {
    const summary = summarizeRepository(
      read({
        milestones: [
          milestone(1, "Running", 1, 3),
          milestone(2, "Stopped", 1, 3),
          milestone(3, "Done", 2, 2),
          milestone(4, "Waiting", 0, 2),
          milestone(5, "Not a sprint", 0, 4, 0),
          milestone(6, "Asking", 0, 2),
        ],
        tasks: [
          issue(10, ["locus:in-progress"], { milestone: 1 }),
          issue(11, ["locus:failed"], { milestone: 1 }),
          issue(12, ["locus:failed"], { milestone: 2 }),
          issue(13, ["locus:queued"], { milestone: 4 }),
          issue(14, ["locus:waiting"], { milestone: 6 }),
          issue(15, ["locus:queued"], { milestone: 6 }),
        ],
        managedOpen: [
          { number: 20, title: "Sprint: Stopped", url: "u/20" },
          { number: 21, title: "Sprint: Stoppedx", url: "u/21" },
        ],
      }),
      options,
    );
    expect(
      summary.sprints.map(({ title, state, trackingIssue }) => [title, state, trackingIssue?.number]),
    ).toEqual([
      ["Running", "running", undefined],
      ["Stopped", "stopped", 20],
      ["Done", "finished", undefined],
      ["Waiting", "waiting", undefined],
      ["Asking", "asking", undefined],
    ]);
    expect(summary.failed.map((task) => task.sprint)).toEqual(["Running", "Stopped"]);
  });

  it("names the issue a pull request's branch closes, and describes the issue asked about", () => {
    const summary = summarizeRepository(
      read({
        pullRequests: [
          { number: 30, title: "a", url: "p/30", headRef: "locus/issue-4" },
          { number: 31, title: "b", url: "p/31", headRef: "feature/x" },
        ],
        about: {
          number: 1,
          labels: ["locus:done"],
          comments: [{ body: statusBody({ attempts: 2, pr: 30 }), author: "locus", viewerDidAuthor: false }],
        },
      }),
      options,
    );
    expect(summary.pullRequests.map((pr) => pr.issue)).toEqual([4, undefined]);
    expect(summary.about).toEqual({
      number: 1,
      status: "locus:done",
      pr: 30,
      runUrl: undefined,
      attempts: 2,
    });
    expect(
      summarizeRepository(read({ about: { number: 1, labels: [], comments: [] } }), options).about,
    ).toEqual({
      number: 1,
      status: undefined,
    });
    expect(summarizeRepository(read({}), options).about).toBeUndefined();
  });

  it("lists the tasks waiting for an answer with their questions and how long they have waited, from Locus's own record", () => {
    const waiting = (askedAt: string) => ({
      questions: ["Which greeting?", "Upper case?"],
      commentId: 5,
      askedAt,
    });
    const summary = summarizeRepository(
      read({
        tasks: [
          issue(2, ["locus:waiting"], {
            comments: [
              {
                body: statusBody({ waiting: waiting("2026-11-24T09:30:00Z") }),
                author: "locus",
                viewerDidAuthor: false,
              },
            ],
          }),
          issue(3, ["locus:waiting"], {
            comments: [
              {
                body: statusBody({ waiting: waiting("2026-11-20T00:00:00Z") }),
                author: "mallory",
                viewerDidAuthor: false,
              },
            ],
          }),
          issue(4, ["locus:queued"]),
        ],
        about: {
          number: 1,
          labels: ["locus:waiting"],
          comments: [
            {
              body: statusBody({ attempts: 1, waiting: waiting("2026-11-24T11:00:00Z") }),
              author: "locus",
              viewerDidAuthor: false,
            },
          ],
        },
      }),
      options,
    );
    expect(
      summary.waiting.map(({ number, questions, waitedMs }) => ({ number, questions, waitedMs })),
    ).toEqual([
      { number: 2, questions: ["Which greeting?", "Upper case?"], waitedMs: 150 * 60_000 },
      { number: 3, questions: [], waitedMs: undefined },
    ]);
    expect(summary.queued.map((task) => task.number)).toEqual([4]);
    expect(summary.about).toMatchObject({ status: "locus:waiting", waitedMs: 60 * 60_000 });
  });
});
