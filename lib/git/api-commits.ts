/**
 * `commit.via: api`: the run's commits, already checked in Locus's own repository, recreated on
 * GitHub through `createCommitOnBranch`, one API commit per commit (more when a commit is too
 * large for one request), same message, each appended only while the branch's head is the one
 * before it. GitHub signs what it makes, so the branch's commits show as Verified. Files are
 * read from Locus's repository (git plumbing on its objects), never from the worktree.
 *
 * GitHub documents no size limit for a GraphQL request; Locus keeps each request's file
 * contents under a conservative cap (REQUEST_CAP_BYTES) and splits a larger commit into parts.
 */
import type { CommitWrites, FileAddition } from "../github/types.ts";
import {
  apiRefusals,
  base64Length,
  messageParts,
  splitByRequestSize,
  type CommitChange,
} from "./commit-changes.ts";
import type { PushResult } from "./git-client-types.ts";

/** Base64 bytes of file contents per request: well under what GitHub has been seen to take. */
const REQUEST_CAP_BYTES = 8 * 1024 * 1024;

/** What Locus's repository tells about the commits to recreate. */
export interface CommitSource {
  /** The commits in `tip` that `haves` lack, oldest first, each with its parents. */
  newCommits(tip: string, haves: readonly string[]): Promise<{ sha: string; parents: string[] }[]>;
  message(sha: string): Promise<string>;
  changes(parent: string, sha: string): Promise<CommitChange[]>;
  blobSize(blob: string): Promise<number>;
  blob(blob: string): Promise<Buffer>;
}

export interface ApiPushInput {
  readonly tip: string;
  readonly branch: string;
  /** The branch's head last seen ("" = must not exist); undefined: whatever it is now. */
  readonly expect: string | undefined;
  readonly haves: readonly string[];
  /** The branch's head on GitHub now ("" when absent). */
  readonly remoteHead: () => Promise<string>;
  readonly capBytes?: number;
}

/** The push's outcome; on success, the branch's new head on GitHub (other shas than the sandbox's). */
export type ApiPushResult = { ok: true; head: string } | Extract<PushResult, { ok: false }>;

const refused = (message: string): ApiPushResult => ({ ok: false, rejected: false, message });
const moved = (message: string): ApiPushResult => ({ ok: false, rejected: true, message });

export async function pushThroughApi(
  source: CommitSource,
  writes: CommitWrites,
  input: ApiPushInput,
): Promise<ApiPushResult> {
  const commits = await source.newCommits(input.tip, input.haves);
  const merge = commits.find((commit) => commit.parents.length !== 1);
  if (merge) return refused(`commit.via: api cannot recreate ${merge.sha}: it is a merge or a root commit`);
  const base = commits[0]?.parents[0] ?? input.tip;
  // Everything is checked before the first write: a refusal leaves GitHub as it was.
  const planned = [];
  for (const commit of commits) {
    const changes = await source.changes(commit.parents[0] ?? "", commit.sha);
    const modes = apiRefusals(changes);
    if (modes.length > 0) {
      return refused(
        `commit.via: api cannot recreate ${commit.sha.slice(0, 12)}: GitHub's createCommitOnBranch writes only regular files, and ${modes.join("; ")}. Set commit.via: git to push such commits as they are`,
      );
    }
    planned.push({ commit, changes, message: await source.message(commit.sha) });
  }
  const head = input.expect ?? (await input.remoteHead());
  if (head === "") {
    if ((await writes.createBranch(input.branch, base)) === "exists") {
      return moved(`${input.branch} was created on GitHub meanwhile`);
    }
  } else if (head !== base) {
    // A rewritten branch (a rebase onto a moved base): moved back to where the new commits start, under the same lease.
    const reset = await writes.moveBranch(input.branch, head, base);
    if (!reset.ok)
      return moved(`${input.branch} could not be moved to ${base.slice(0, 12)}: ${reset.message}`);
  }
  let current = base;
  for (const { changes, message } of planned) {
    const costed = await Promise.all(
      changes.map(async (change) => ({
        change,
        cost:
          change.path.length + (change.status === "D" ? 0 : base64Length(await source.blobSize(change.blob))),
      })),
    );
    const parts = splitByRequestSize(costed, input.capBytes ?? REQUEST_CAP_BYTES);
    for (const [index, part] of parts.entries()) {
      const additions: FileAddition[] = [];
      for (const { change } of part.filter(({ change }) => change.status !== "D")) {
        additions.push({ path: change.path, contents: (await source.blob(change.blob)).toString("base64") });
      }
      const made = await writes.createCommitOnBranch({
        branch: input.branch,
        expectedHeadOid: current,
        ...messageParts(message, index + 1, parts.length),
        additions,
        deletions: part
          .filter(({ change }) => change.status === "D")
          .map(({ change }) => ({ path: change.path })),
      });
      if (!made.ok) return made.moved ? moved(made.message) : refused(made.message);
      current = made.oid;
    }
  }
  return { ok: true, head: current };
}
