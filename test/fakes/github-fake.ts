/**
 * One typed in-memory fake of the whole GitHub gateway (lib/github/types.ts):
 * `createGitHubFake()` answers a value typed as `GitHubGateway`, with no cast,
 * so a new gateway member fails to typecheck here until the fake models it.
 * Each role is one small function over the store (fake-*.ts); adding a member
 * is one function in the role's file. Members a test does not reach throw
 * "github-fake: <member> is not modelled".
 *
 * What Locus's logic relies on is modelled as GitHub behaves: labels are sets
 * (a removal of a label the issue lacks answers false, which is how two
 * sweeps' claims race), comments carry ids, authors and times from the
 * injected clock, a sticky comment counts only when Locus wrote it, a moment's
 * writes apply in order and answer the label sets as they now stand.
 * test/fakes/github-fake-parity.test.ts checks that against the simulator.
 */
import type {
  GitHubGateway,
  MomentWrite,
  NewReview,
  Permission,
  RepoRef,
  Review,
  WorkflowRun,
} from "../../lib/github/index.ts";
import type { Clock } from "../../lib/task/context.ts";
import { seedCiRun, seedSuite, type FakeCiRunSpec, type FakeSuiteSpec } from "./fake-ci.ts";
import { fakeComments } from "./fake-comments.ts";
import type { FakeReviewComment, FakeThread } from "./fake-review-records.ts";
import { replyInThread, submitReview, threadAt } from "./fake-reviews.ts";
import { fakeIssues, openIssue } from "./fake-issues.ts";
import { fakePulls } from "./fake-pulls.ts";
import { fakeRuns } from "./fake-runs.ts";
import { fakeTaskReads } from "./fake-task-reads.ts";
import {
  createFakeStore,
  postComment,
  type FakeCall,
  type FakeComment,
  type FakeIssue,
  type FakeStore,
} from "./github-fake-store.ts";

export type { FakeCall, FakeComment, FakeIssue, FakeStore };

export interface GitHubFakeOptions {
  readonly repo?: RepoRef;
  /** Times of comments and label changes; a fixed clock by default, so a test never reads the wall clock. */
  readonly clock?: Clock;
  /** Who the gateway writes as. */
  readonly self?: string;
  readonly defaultBranch?: string;
  readonly permissions?: Readonly<Record<string, Permission>>;
  readonly files?: Readonly<Record<string, string>>;
}

/** The gateway, and the handles a test seeds and inspects it by. */
export type GitHubFake = GitHubGateway & {
  readonly store: FakeStore;
  /** Every gateway call so far, in order. */
  readonly calls: readonly FakeCall[];
  /** Every `writeMoment` batch, in order. */
  readonly moments: readonly (readonly MomentWrite[])[];
  /** The calls of one member, by their arguments. */
  callsOf(member: string): (readonly unknown[])[];
  /** Opens an issue as someone did on GitHub (author "alice" unless said). */
  seedIssue(fields: Parameters<typeof openIssue>[1]): FakeIssue;
  /** Posts a comment as `author` (the gateway's own comments go through `createComment`). */
  seedComment(issue: number, body: string, author: string): FakeComment;
  seedMilestone(title: string): number;
  seedRun(run: Omit<WorkflowRun, "id" | "url" | "createdAt">): WorkflowRun;
  /** Submits a review on a pull request as `author`: each line comment opens a thread. */
  seedReview(pr: number, review: NewReview, author: string): Review;
  /** Replies in a review thread as `author`. */
  seedThreadReply(threadId: string, body: string, author: string): FakeReviewComment;
  /** The review thread whose first comment says `body`. */
  threadStartingWith(body: string): FakeThread;
  /** A completed CI run of GitHub Actions on a branch's head: its jobs are check runs with logs. */
  seedCiRun(spec: FakeCiRunSpec): WorkflowRun;
  /** Another app's check suite on a commit; answers its id. */
  seedSuite(spec: FakeSuiteSpec): number;
  /** The issue's labels as they stand, sorted. */
  labelsOf(issue: number): string[];
};

export const FAKE_EPOCH = new Date("2026-01-05T09:00:00Z");

export function createGitHubFake(options: GitHubFakeOptions = {}): GitHubFake {
  const clock = options.clock ?? { now: () => FAKE_EPOCH };
  const store = createFakeStore(
    options.repo ?? { owner: "acme", repo: "widgets" },
    clock,
    options.self ?? "locus[bot]",
    options.defaultBranch ?? "main",
  );
  for (const [user, permission] of Object.entries(options.permissions ?? {}))
    store.permissions.set(user, permission);
  for (const [path, text] of Object.entries(options.files ?? {})) store.files.set(path, text);
  const issues = fakeIssues(store);
  const gateway: GitHubGateway = {
    ...fakeRuns(store),
    ...issues,
    ...fakeComments(store),
    ...fakePulls(store),
    ...fakeTaskReads(store),
    // No attachments: a fake issue's images are never fetched (the simulator serves real ones).
    attachments: { download: () => Promise.resolve({ ok: false, why: "the fake holds no attachments" }) },
  };
  return {
    ...gateway,
    store,
    calls: store.calls,
    moments: store.moments,
    callsOf: (member) => store.calls.filter((call) => call.member === member).map((call) => call.args),
    seedIssue: (fields) => openIssue(store, fields),
    seedComment: (issue, body, author) => postComment(store, issue, body, author),
    seedMilestone(title) {
      const number = store.milestones.size + 1;
      store.milestones.set(number, {
        number,
        title,
        description: "",
        state: "open",
        dueOn: null,
        openIssues: 0,
        closedIssues: 0,
        url: `https://github.test/${store.repo.owner}/${store.repo.repo}/milestone/${number}`,
      });
      return number;
    },
    seedRun(run) {
      const id = store.nextId();
      const seeded = {
        ...run,
        id,
        url: `https://github.test/${store.repo.owner}/${store.repo.repo}/actions/runs/${id}`,
        createdAt: store.now(),
      };
      store.workflowRuns.unshift(seeded);
      return seeded;
    },
    seedReview: (pr, review, author) => submitReview(store, pr, review, author),
    seedThreadReply: (threadId, body, author) => replyInThread(store, threadId, body, author),
    threadStartingWith(body) {
      const threads = [...store.issues.values()].flatMap((issue) => issue.pull?.threads ?? []);
      return threadAt(store, threads.find((thread) => thread.comments[0]?.body === body)?.id ?? body);
    },
    seedCiRun: (spec) => seedCiRun(store, spec),
    seedSuite: (spec) => seedSuite(store, spec),
    labelsOf: (issue) => [...(store.issues.get(issue)?.labels ?? [])].sort(),
  };
}
