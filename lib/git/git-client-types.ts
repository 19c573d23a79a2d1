/**
 * The shape of Locus's git port: what a client needs to be made and what it
 * can do. Apart from `git-client.ts` so a reader sees the whole interface in
 * one screen, and so the modes that only hold a client need not read how it
 * runs git.
 */
import type { CommitWrites } from "../github/types.ts";
import type { ConfigGuard } from "./config-guard.ts";
import type { ExecGit } from "./exec-git.ts";
import type { SecretHit } from "../secrets/secrets-in-diff.ts";
import type { PushAuth } from "./push-auth.ts";
import type { GitSandbox } from "./sandboxed-git.ts";

export interface GitIdentity {
  /** The author. */
  readonly name: string;
  readonly email: string;
  /** The committer, when it is not the author (Locus's bot, under a configured author). */
  readonly committer?: { readonly name: string; readonly email: string };
}

export interface GitClientOptions {
  readonly cwd: string;
  readonly identity: GitIdentity;
  /** The inherited environment (PATH, HOME); secrets are the caller's to leave out. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Fixed credentials, or credentials asked for per command: a push needs write access, a fetch only
   * read. A push asks for write access once more as it begins, so a function should share a request
   * still in flight (the token exchange's client does).
   */
  readonly auth?: PushAuth | ((access: RemoteAccess) => Promise<PushAuth>);
  readonly remote?: string;
  /**
   * The remote's URL, read before the agent ran: commands that reach the remote use it rather
   * than the remote's name, whose URL the repository's config could have changed since.
   */
  readonly remoteUrl?: string;
  /** Where every worktree git command runs; without one, git runs on the host (tests, `sandbox.mode: off`). */
  readonly sandbox?: GitSandbox;
  /**
   * The directory of Locus's own repository (locus-repository.ts), made on first use: hidden from
   * the sandbox, such as a directory under the runner's temp. A fresh temp directory when absent.
   */
  readonly repositoryPath?: string;
  /**
   * Where the checkout's worktrees are added (`worktreeAdd`), when the caller knows it up front:
   * mounted for all of the checkout's commands, so they share one sandbox session.
   */
  readonly worktreesDir?: string;
  /**
   * Set for `commit.via: api`: pushes recreate the commits through GitHub's API (which signs
   * them) instead of sending them with git; the worktree then continues from GitHub's commits.
   */
  readonly commitWrites?: CommitWrites;
  /** The run's secret values, read at each commit (tokens exchanged later join them). */
  readonly secrets?: () => readonly string[];
  readonly exec?: ExecGit;
  /** Told which git files were changed behind Locus's back (and have been reverted). */
  readonly onConfigReverted?: (paths: readonly string[]) => void;
  /** Shared by a client and the clients of its worktrees; made by the first client. */
  readonly guard?: ConfigGuard;
  readonly gitDir?: string | undefined;
}

export type RemoteAccess = "read" | "write";

/** Whether anything is staged, and the files left out because they would commit a secret. */
export interface StageResult {
  readonly staged: boolean;
  readonly withheld: readonly SecretHit[];
}
/**
 * The worktree's files as one `git ls-files` pass sees them: what the index tracks, what no ignore
 * rule covers, and the nested repositories among them (submodules and untracked repositories),
 * which staging must leave alone.
 */
export interface WorktreeFiles {
  readonly tracked: readonly string[];
  readonly untracked: readonly string[];
  readonly nested: readonly string[];
}

export type CommittedFile =
  { readonly kind: "file"; readonly text: string } | { readonly kind: "symlink" } | null;

/** A committed path as one `ls-tree` listed it: a file's text is read only when asked for. */
export type CommittedEntry =
  { readonly kind: "file"; readonly read: () => Promise<string> } | { readonly kind: "symlink" };

export type RebaseResult = { ok: true } | { ok: false; conflicts: string[] };

export type PushResult = { ok: true } | { ok: false; rejected: boolean; message: string };

/** Where a stepwise rebase stands: finished, or stopped on a commit whose replay conflicts. */
export type RebaseStep =
  | { readonly state: "done" }
  | {
      readonly state: "conflict";
      readonly files: string[];
      readonly commit: { sha: string; message: string };
    };

export interface FileStat {
  readonly path: string;
  readonly additions: number;
  readonly deletions: number;
}

export interface GitClient {
  readonly cwd: string;
  /** The same repository in another directory (a worktree). */
  at(cwd: string): GitClient;
  /** Branches on the remote matching the patterns (`locus/issue-*`), name → sha. */
  remoteBranches(patterns: readonly string[]): Promise<Map<string, string>>;
  /** Fetches each branch to `refs/remotes/<remote>/<branch>`. */
  fetchBranches(branches: readonly string[]): Promise<void>;
  remoteRef(branch: string): string;
  revParse(ref: string): Promise<string | null>;
  worktreeAdd(path: string, branch: string, startPoint: string): Promise<GitClient>;
  worktreeRemove(path: string): Promise<void>;
  /** Points `branch` at `startPoint` and checks it out, discarding local changes. */
  checkoutBranch(branch: string, startPoint: string): Promise<void>;
  /**
   * Stages every change but `leaveOut` (paths kept out of the commit), nested repositories,
   * submodules and files that add a secret (the run's or a known token format; `withheld`).
   * `listed`: the worktree's files as `worktreeFiles` just read them, with nothing run in the
   * worktree since, so that the nested repositories need not be listed again.
   */
  stageAll(leaveOut?: readonly string[], listed?: WorktreeFiles): Promise<StageResult>;
  /** Tracked and untracked files and nested repositories, in one git command. */
  worktreeFiles(): Promise<WorktreeFiles>;
  commit(message: string): Promise<string>;
  /** Moves the branch to `ref`, keeping the files and the index as they are. */
  resetSoft(ref: string): Promise<void>;
  /** Whether two trees differ. */
  differs(from: string, to: string): Promise<boolean>;
  diff(from: string, to: string): Promise<string>;
  /** What `to` changed since it left `from` (`git diff from...to`): a pull request's diff as GitHub shows it. */
  branchDiff(from: string, to: string): Promise<string>;
  diffStat(from: string, to: string): Promise<FileStat[]>;
  isAncestor(ancestor: string, descendant: string): Promise<boolean>;
  commitMessage(ref: string): Promise<string>;
  /** Committer date (ISO) of the newest commit in `range` by `email`, or null. */
  lastCommitBy(email: string, range: string): Promise<string | null>;
  listFiles(): Promise<string[]>;
  /**
   * A file as committed at `commit`, never through the filesystem: null when absent; a symbolic
   * link (mode 120000) is reported apart, since its target would be read from disk.
   */
  committedFile(commit: string, path: string): Promise<CommittedFile>;
  /** Several paths at `commit` with one `ls-tree` for all of them: path → entry (absent ones left out). */
  committedFiles(commit: string, paths: readonly string[]): Promise<Map<string, CommittedEntry>>;
  recentLog(count: number): Promise<string>;
  rebase(onto: string): Promise<RebaseResult>;
  /**
   * `HEAD` to `branch` on the remote, through Locus's own repository (its commits checked there
   * first); `expect` is a force-with-lease on the value last seen ("" = must not exist).
   */
  push(branch: string, options?: { expect?: string }): Promise<PushResult>;
  deleteRemoteBranch(branch: string, expect: string): Promise<void>;
  /** `git rebase --onto <onto> <upstream>` of the checked-out branch, stopping at a conflict (diff3 markers). */
  rebaseOnto(onto: string, upstream: string): Promise<RebaseStep>;
  /** Stages the resolution and goes on with the rebase. */
  rebaseContinue(): Promise<RebaseStep>;
  rebaseAbort(): Promise<void>;
  mergeBase(a: string, b: string): Promise<string | null>;
  /** `%h %s` of the commits in `range`, newest first, at most `count`. */
  recentLogRange(range: string, count: number): Promise<string>;
}
