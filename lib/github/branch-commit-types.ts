// The gateway's role for commits GitHub makes itself (config `commit.via: api`), apart from
// types.ts so that file stays one screen of roles. Types only.

/** A file of a commit GitHub makes: its path and its whole contents, base64. */
export type FileAddition = { path: string; contents: string };

/** A commit for `createCommitOnBranch`: appended to `branch` only while its head is `expectedHeadOid`. */
export type NewBranchCommit = {
  branch: string;
  expectedHeadOid: string;
  headline: string;
  body: string;
  additions: readonly FileAddition[];
  deletions: readonly { path: string }[];
};

/** The commit GitHub made, or why not (`moved`: the branch's head was not `expectedHeadOid`). */
export type BranchCommitResult = { ok: true; oid: string } | { ok: false; moved: boolean; message: string };

/** Commits GitHub makes and signs itself (config `commit.via: api`). */
export interface CommitWrites {
  /** Creates `branch` at `sha`; "exists" when there is a branch of that name already. */
  createBranch(branch: string, sha: string): Promise<"created" | "exists">;
  createCommitOnBranch(commit: NewBranchCommit): Promise<BranchCommitResult>;
  /** Moves `branch` from `from` to `to`, backwards too (a rebased branch's new base); refused when it is not at `from`. */
  moveBranch(branch: string, from: string, to: string): Promise<BranchCommitResult>;
}
