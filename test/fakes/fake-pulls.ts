/* eslint-disable @typescript-eslint/require-await -- the fake answers at once; async turns its throws into rejections, as GitHub's errors are */
/**
 * The fake's pull requests, stacks and branch commits (github-fake.ts). A pull
 * request is an issue of the store with a `pull` part, so labels and
 * comments work on it as on GitHub; its reviews and threads are fake-reviews.ts.
 */
import type { CommitWrites, PullRequest, PullRequestPort, StackPort } from "../../lib/github/index.ts";
import { issueAt, pullRecord, type FakeIssue, type FakeStore } from "./github-fake-store.ts";
import { openIssue } from "./fake-issues.ts";
import { fakeReviews } from "./fake-reviews.ts";

function pulls(store: FakeStore): PullRequest[] {
  return [...store.issues.values()].flatMap((issue) => pullRecord(store, issue) ?? []);
}

function pullOf(store: FakeStore, issue: FakeIssue): PullRequest {
  const pull = pullRecord(store, issue);
  if (!pull) throw new Error(`github-fake: #${issue.number} is not a pull request (404)`);
  return pull;
}

/** A new commit's id: 40 hex digits that never repeat within one fake. */
export function fakeSha(store: FakeStore): string {
  return store.nextId().toString(16).padStart(40, "a");
}

export function fakePulls(store: FakeStore): PullRequestPort & StackPort & CommitWrites {
  return {
    ...fakeReviews(store),
    async createPullRequest(fields) {
      store.record("createPullRequest", [fields]);
      const sha = store.branches.get(fields.head);
      if (sha === undefined)
        throw new Error(`github-fake: no branch ${fields.head} to open a pull request from (422)`);
      const issue = openIssue(store, {
        title: fields.title,
        body: fields.body,
        author: store.self,
        pull: {
          head: { ref: fields.head, sha },
          base: { ref: fields.base },
          merged: false,
          draft: fields.draft ?? false,
          diff: "",
          reviews: [],
          threads: [],
          fromFork: false,
        },
      });
      return pullOf(store, issue);
    },
    async findPullRequestByHead(branch, opts = {}) {
      store.record("findPullRequestByHead", [branch, opts]);
      const state = opts.state ?? "open";
      return (
        pulls(store).find((pr) => pr.head.ref === branch && (state === "all" || pr.state === state)) ?? null
      );
    },
    async getPullRequest(number) {
      store.record("getPullRequest", [number]);
      const issue = store.issues.get(number);
      return issue ? pullRecord(store, issue) : null;
    },
    async updatePullRequest(number, patch) {
      store.record("updatePullRequest", [number, patch]);
      const issue = issueAt(store, number);
      if (!issue.pull) throw new Error(`github-fake: #${number} is not a pull request (404)`);
      if (patch.title !== undefined) issue.title = patch.title;
      if (patch.body !== undefined) issue.body = patch.body;
      if (patch.state !== undefined) issue.state = patch.state;
      if (patch.base !== undefined) issue.pull.base = { ref: patch.base };
      issue.updatedAt = store.now();
      return pullOf(store, issue);
    },
    async getPullRequestDiff(number) {
      store.record("getPullRequestDiff", [number]);
      return issueAt(store, number).pull?.diff ?? "";
    },
    stack: {
      async pullsOnto(base) {
        store.record("stack.pullsOnto", [base]);
        return pulls(store).filter((pr) => pr.state === "open" && pr.base.ref === base);
      },
    },
    async createBranch(branch, sha) {
      store.record("createBranch", [branch, sha]);
      if (store.branches.has(branch)) return "exists";
      store.branches.set(branch, sha);
      return "created";
    },
    async createCommitOnBranch(commit) {
      store.record("createCommitOnBranch", [commit]);
      const head = store.branches.get(commit.branch);
      if (head !== commit.expectedHeadOid) {
        return {
          ok: false,
          moved: head !== undefined,
          message: `github-fake: ${commit.branch} is not at ${commit.expectedHeadOid}`,
        };
      }
      const oid = fakeSha(store);
      store.branches.set(commit.branch, oid);
      return { ok: true, oid };
    },
    async moveBranch(branch, from, to) {
      store.record("moveBranch", [branch, from, to]);
      if (store.branches.get(branch) !== from)
        return { ok: false, moved: true, message: `github-fake: ${branch} is not at ${from}` };
      store.branches.set(branch, to);
      return { ok: true, oid: to };
    },
  };
}
