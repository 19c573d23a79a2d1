/**
 * Git behind a small interface, one client per working directory (the
 * checkout or a worktree). Arguments are arrays (no shell), names are
 * validated, prompts are off, and hooks are disabled: the agent can write
 * files under `.git/hooks`, and Locus must not run them with a token in the
 * environment. Credentials are added only to commands that reach the remote, and
 * those read no config the agent could have written: global and system config
 * off, the repository's config checked against its state before the agent ran
 * (config-guard.ts), the remote named by its URL, only `https` and `file` allowed.
 */
import { createConfigGuard, type ConfigGuard } from "./config-guard.ts";
import { execGit, type ExecGit } from "./exec-git.ts";
import { NO_AUTH, type PushAuth } from "./push-auth.ts";
import { assertRefName, assertRepoPath } from "./ref-names.ts";

export interface GitIdentity {
  readonly name: string;
  readonly email: string;
}

export interface GitClientOptions {
  readonly cwd: string;
  readonly identity: GitIdentity;
  /** The inherited environment (PATH, HOME); secrets are the caller's to leave out. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Fixed credentials, or credentials asked for per command: a push needs write access, a fetch only read. */
  readonly auth?: PushAuth | ((access: RemoteAccess) => Promise<PushAuth>);
  readonly remote?: string;
  /**
   * The remote's URL, read before the agent ran: commands that reach the remote use it rather
   * than the remote's name, whose URL the repository's config could have changed since.
   */
  readonly remoteUrl?: string;
  readonly exec?: ExecGit;
  /** Told which git files were changed behind Locus's back (and have been reverted). */
  readonly onConfigReverted?: (paths: readonly string[]) => void;
  /** Shared by a client and the clients of its worktrees; made by the first client. */
  readonly guard?: ConfigGuard;
}

export type RemoteAccess = "read" | "write";
export type CommittedFile =
  { readonly kind: "file"; readonly text: string } | { readonly kind: "symlink" } | null;

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
  remoteUrl(): Promise<string>;
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
  /** Stages everything and answers whether anything is staged. */
  /** Stages every change but `leaveOut` (untracked paths kept out of the commit); whether anything is staged. */
  stageAll(leaveOut?: readonly string[]): Promise<boolean>;
  /** Untracked files that no ignore rule covers, relative to the worktree. */
  untrackedFiles(): Promise<string[]>;
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
  recentLog(count: number): Promise<string>;
  rebase(onto: string): Promise<RebaseResult>;
  /** `HEAD` to `branch` on the remote; `expect` is a force-with-lease on the value last seen ("" = must not exist). */
  push(branch: string, options?: { expect?: string; source?: string }): Promise<PushResult>;
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

export function createGitClient(options: GitClientOptions): GitClient {
  const exec = options.exec ?? execGit;
  const remote = options.remote ?? "origin";
  const auth = options.auth ?? NO_AUTH;
  const baseEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.env)) {
    if (value !== undefined && !name.startsWith("GIT_")) baseEnv[name] = value;
  }
  Object.assign(baseEnv, {
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: options.identity.name,
    GIT_AUTHOR_EMAIL: options.identity.email,
    GIT_COMMITTER_NAME: options.identity.name,
    GIT_COMMITTER_EMAIL: options.identity.email,
  });
  const target = options.remoteUrl ?? remote;
  const guard = options.guard ?? createConfigGuard(options.onConfigReverted ?? (() => undefined));
  guard.protect(options.cwd);
  // No hooks and no fsmonitor program for any command: the agent can write the worktree.
  const SAFE = [
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "advice.detachedHead=false",
    // Locus's own commands leave the config as the guard recorded it (no tracking sections).
    "-c",
    "branch.autoSetupMerge=false",
  ];
  // Only https and local paths for the remote: no ext::, ssh (core.sshCommand), git:// or others;
  // plain http only to a loopback remote read before the agent ran (a local GitHub such as the simulator).
  const REMOTE_SAFE = [
    "-c",
    "protocol.allow=never",
    "-c",
    "protocol.https.allow=always",
    "-c",
    "protocol.file.allow=always",
    ...(plainHttpLoopback(target) ? ["-c", "protocol.http.allow=always"] : []),
    "-c",
    "core.sshCommand=false",
    "-c",
    "credential.helper=",
  ];

  async function git(args: readonly string[], extra: { remote?: RemoteAccess; allowFailure?: boolean } = {}) {
    const credentials =
      extra.remote === undefined ? undefined : typeof auth === "function" ? await auth(extra.remote) : auth;
    if (extra.remote) guard.restore();
    return exec([...SAFE, ...(extra.remote ? REMOTE_SAFE : []), ...args], {
      cwd: options.cwd,
      // Global config off too for the commands that carry a credential (set last: auth cannot undo it).
      env: credentials
        ? { ...baseEnv, ...credentials.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" }
        : baseEnv,
      allowFailure: extra.allowFailure,
    });
  }

  async function rebaseStep(args: readonly string[]): Promise<RebaseStep> {
    const result = await git(["-c", "merge.conflictStyle=diff3", ...args], { allowFailure: true });
    if (result.exitCode === 0) return { state: "done" };
    const unmerged = await git(["diff", "--name-only", "--diff-filter=U"], { allowFailure: true });
    const files = unmerged.stdout.split("\n").filter(Boolean);
    const stopped = await git(["rev-parse", "--verify", "--quiet", "REBASE_HEAD"], { allowFailure: true });
    const sha = stopped.stdout.trim();
    if (files.length === 0 || !sha) {
      await git(["rebase", "--abort"], { allowFailure: true });
      throw new Error(`git ${args.join(" ")} failed: ${result.stderr.trim()}`);
    }
    const message = (await git(["log", "-1", "--format=%B", sha])).stdout.trim();
    return { state: "conflict", files, commit: { sha, message } };
  }

  const client: GitClient = {
    cwd: options.cwd,
    at: (cwd) => createGitClient({ ...options, cwd, guard }),
    async remoteUrl() {
      return (await git(["remote", "get-url", remote])).stdout.trim();
    },
    async remoteBranches(patterns) {
      const refs = patterns.map((pattern) => {
        // Validate with the glob stars replaced: `*` is not a ref character but ls-remote matches it.
        assertRefName(pattern.replace(/\*/g, "x"));
        return `refs/heads/${pattern}`;
      });
      const { stdout } = await git(["ls-remote", "--heads", target, ...refs], { remote: "read" });
      const found = new Map<string, string>();
      for (const line of stdout.split("\n")) {
        const [sha, ref] = line.split("\t");
        if (sha && ref?.startsWith("refs/heads/")) found.set(ref.slice("refs/heads/".length), sha);
      }
      return found;
    },
    async fetchBranches(branches) {
      if (branches.length === 0) return;
      const specs = branches.map(
        (branch) => `+refs/heads/${assertRefName(branch)}:refs/remotes/${remote}/${branch}`,
      );
      await git(["fetch", "--no-tags", "--no-write-fetch-head", target, ...specs], { remote: "read" });
    },
    remoteRef: (branch) => `refs/remotes/${remote}/${assertRefName(branch)}`,
    async revParse(ref) {
      const result = await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
        allowFailure: true,
      });
      return result.exitCode === 0 ? result.stdout.trim() : null;
    },
    async worktreeAdd(path, branch, startPoint) {
      await git(["worktree", "remove", "--force", path], { allowFailure: true });
      await git(["worktree", "prune"]);
      await git(["worktree", "add", "--force", "-B", assertRefName(branch), path, startPoint]);
      return client.at(path);
    },
    async worktreeRemove(path) {
      await git(["worktree", "remove", "--force", path], { allowFailure: true });
    },
    async checkoutBranch(branch, startPoint) {
      await git(["checkout", "--force", "-B", assertRefName(branch), startPoint]);
      await git(["clean", "-ffdq"]);
    },
    async stageAll(leaveOut = []) {
      await git(["add", "--all"]);
      // Unstaged again in bounded batches; `--` keeps a path from being read as an option.
      for (let at = 0; at < leaveOut.length; at += 100) {
        await git(["reset", "--quiet", "--", ...leaveOut.slice(at, at + 100)]);
      }
      const staged = await git(["diff", "--cached", "--quiet"], { allowFailure: true });
      return staged.exitCode === 1;
    },
    async commit(message) {
      await git(["commit", "--no-verify", "--no-gpg-sign", "--quiet", "-m", message]);
      return (await git(["rev-parse", "HEAD"])).stdout.trim();
    },
    async resetSoft(ref) {
      await git(["reset", "--soft", ref]);
    },
    async differs(from, to) {
      return (await git(["diff", "--quiet", from, to, "--"], { allowFailure: true })).exitCode === 1;
    },
    async diff(from, to) {
      return (await git(["diff", "--no-color", "--no-ext-diff", from, to, "--"])).stdout;
    },
    async branchDiff(from, to) {
      return (await git(["diff", "--no-color", "--no-ext-diff", `${from}...${to}`, "--"])).stdout;
    },
    async diffStat(from, to) {
      const { stdout } = await git(["diff", "--numstat", "--no-renames", from, to, "--"]);
      return stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [added = "0", removed = "0", ...path] = line.split("\t");
          return { path: path.join("\t"), additions: Number(added) || 0, deletions: Number(removed) || 0 };
        });
    },
    async isAncestor(ancestor, descendant) {
      const result = await git(["merge-base", "--is-ancestor", ancestor, descendant], { allowFailure: true });
      return result.exitCode === 0;
    },
    async commitMessage(ref) {
      return (await git(["log", "-1", "--format=%B", ref])).stdout.trim();
    },
    async lastCommitBy(email, range) {
      const { stdout } = await git([
        "log",
        "-1",
        "--format=%cI",
        "--fixed-strings",
        `--author=<${email}>`,
        range,
      ]);
      return stdout.trim() || null;
    },
    async untrackedFiles() {
      return (await git(["ls-files", "--others", "--exclude-standard", "-z"])).stdout
        .split("\0")
        .filter(Boolean);
    },
    async listFiles() {
      return (await git(["ls-files", "-z"])).stdout.split("\0").filter(Boolean);
    },
    async committedFile(commit, path) {
      const listed = await git(["ls-tree", "-z", "--full-tree", commit, "--", assertRepoPath(path)], {
        allowFailure: true,
      });
      const [meta] = listed.stdout.split("\t");
      const [mode, type, object] = (meta ?? "").split(" ");
      if (listed.exitCode !== 0 || object === undefined) return null;
      if (mode === "120000") return { kind: "symlink" };
      if (type !== "blob") return null;
      return { kind: "file", text: (await git(["cat-file", "blob", object])).stdout };
    },
    async recentLog(count) {
      return (await git(["log", `-${count}`, "--format=%h %s"], { allowFailure: true })).stdout.trim();
    },
    async rebase(onto) {
      const result = await git(["rebase", "--no-autosquash", onto], { allowFailure: true });
      if (result.exitCode === 0) return { ok: true };
      const unmerged = await git(["diff", "--name-only", "--diff-filter=U"], { allowFailure: true });
      await git(["rebase", "--abort"], { allowFailure: true });
      return { ok: false, conflicts: unmerged.stdout.split("\n").filter(Boolean) };
    },
    async push(branch, pushOptions = {}) {
      const ref = `refs/heads/${assertRefName(branch)}`;
      const remoteTarget = target;
      const lease =
        pushOptions.expect === undefined ? [] : [`--force-with-lease=${ref}:${pushOptions.expect}`];
      const result = await git(
        [
          "push",
          "--porcelain",
          "--no-verify",
          ...lease,
          remoteTarget,
          `${pushOptions.source ?? "HEAD"}:${ref}`,
        ],
        { remote: "write", allowFailure: true },
      );
      if (result.exitCode === 0) return { ok: true };
      const text = `${result.stdout}\n${result.stderr}`;
      return {
        ok: false,
        rejected: /\[rejected\]|stale info|non-fast-forward|fetch first/.test(text),
        message: text.trim(),
      };
    },
    rebaseOnto(onto, upstream) {
      return rebaseStep(["rebase", "--no-autosquash", "--onto", onto, upstream]);
    },
    async rebaseContinue() {
      await git(["add", "--all"]);
      return rebaseStep(["-c", "core.editor=true", "rebase", "--continue"]);
    },
    async rebaseAbort() {
      await git(["rebase", "--abort"], { allowFailure: true });
    },
    async mergeBase(a, b) {
      const result = await git(["merge-base", a, b], { allowFailure: true });
      return result.exitCode === 0 ? result.stdout.trim() : null;
    },
    async recentLogRange(range, count) {
      return (await git(["log", `-${count}`, "--format=%h %s", range], { allowFailure: true })).stdout.trim();
    },
    async deleteRemoteBranch(branch, expect) {
      const ref = `refs/heads/${assertRefName(branch)}`;
      await git(["push", "--no-verify", `--force-with-lease=${ref}:${expect}`, target, `:${ref}`], {
        remote: "write",
        allowFailure: true,
      });
    },
  };
  return client;
}

/** A remote on this machine over plain http (GitHub Enterprise on loopback, or the simulator). */
function plainHttpLoopback(url: string): boolean {
  if (!url.startsWith("http://")) return false;
  try {
    const { hostname } = new URL(url);
    return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
  } catch {
    return false;
  }
}
