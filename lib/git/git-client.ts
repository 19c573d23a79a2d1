/**
 * Git behind a small interface, one client per working directory (the
 * checkout or a worktree). Arguments are arrays (no shell) and names are
 * validated. Every command over a worktree runs inside the run's sandbox
 * without a credential (git-runner.ts); only objects cross to the host, into
 * Locus's own repository, which checks them and talks to the remote
 * (locus-repository.ts). So nothing the agent wrote (a nested repository's
 * filter, a hook, a config) ever runs where the credentials are.
 */
import { lstat, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CommittedEntry, GitClient, GitClientOptions, RebaseStep } from "./git-client-types.ts";
import { pushThroughApi } from "./api-commits.ts";
import { bundlesDir, createGitRunner, revParseCommit, standingMounts } from "./git-runner.ts";
import { openLocusRepository, type LocusRepository } from "./locus-repository.ts";
import { NO_AUTH } from "./push-auth.ts";
import { parseNumstat, parseTreeEntries, parseWorktreeFiles, WORKTREE_FILES_ARGS } from "./listings.ts";
import { assertRefName, assertRepoPath } from "./ref-names.ts";
import { secretsInDiff } from "../secrets/secrets-in-diff.ts";

export type * from "./git-client-types.ts";

/** Locus's repository, shared by a client and the clients of its worktrees; opened on first use. */
type SharedRepository = () => Promise<LocusRepository>;

export function createGitClient(options: GitClientOptions, shared?: SharedRepository): GitClient {
  const { git, guard, gitDir } = createGitRunner(options, standingMounts(options));
  const remote = options.remote ?? "origin";
  let opened: Promise<LocusRepository> | undefined;
  const locusRepository =
    shared ??
    (() =>
      (opened ??= (async () =>
        openLocusRepository({
          path: options.repositoryPath ?? (await mkdtemp(join(tmpdir(), "locus-repository-"))),
          url: options.remoteUrl ?? (await git(["remote", "get-url", remote])).stdout.trim(),
          remote,
          auth: options.auth ?? NO_AUTH,
          searchPath: options.env["PATH"] ?? "",
        }))()));

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

  async function worktreeFiles() {
    return parseWorktreeFiles((await git(WORKTREE_FILES_ARGS)).stdout);
  }

  /** Takes paths out of the index again, in bounded batches; `--` keeps a path from being read as an option. */
  async function unstage(paths: readonly string[]): Promise<void> {
    for (let at = 0; at < paths.length; at += 100) {
      await git(["reset", "--quiet", "--", ...paths.slice(at, at + 100)]);
    }
  }

  /** The run's new commits, written by the sandboxed git as a bundle and copied into Locus's repository. */
  async function importCommits(repo: LocusRepository, tip: string, haves: readonly string[]) {
    const transfer = options.repositoryPath
      ? await mkdtemp(join(bundlesDir(options.repositoryPath), "import-"))
      : await mkdtemp(join(tmpdir(), "locus-bundle-"));
    try {
      const bundle = join(transfer, "commits.bundle");
      // Under the standing bundles directory the command's session already has it writable.
      await git(["bundle", "create", "--quiet", bundle, "--ignore-missing", "HEAD", "--not", ...haves], {
        mounts: { writable: options.repositoryPath ? [] : [transfer] },
      });
      return await repo.importBundle(bundle, tip, haves);
    } finally {
      await rm(transfer, { recursive: true, force: true });
    }
  }

  const client: GitClient = {
    cwd: options.cwd,
    at: (cwd) => {
      // A worktree's client adds no worktrees: only the checkout's mounts their directory.
      const { worktreesDir: _checkoutOnly, ...inherited } = options;
      return createGitClient({ ...inherited, cwd, guard, gitDir }, locusRepository);
    },
    async remoteBranches(patterns) {
      const refs = patterns.map((pattern) => {
        // Validate with the glob stars replaced: `*` is not a ref character but ls-remote matches it.
        assertRefName(pattern.replace(/\*/g, "x"));
        return `refs/heads/${pattern}`;
      });
      const stdout = await (await locusRepository()).lsRemote(refs);
      const found = new Map<string, string>();
      for (const line of stdout.split("\n")) {
        const [sha, ref] = line.split("\t");
        if (sha && ref?.startsWith("refs/heads/")) found.set(ref.slice("refs/heads/".length), sha);
      }
      return found;
    },
    async fetchBranches(branches) {
      if (branches.length === 0) return;
      const repo = await locusRepository();
      await repo.fetch(branches.map(assertRefName));
      // From Locus's repository into the worktree's, by the sandboxed git (the repository only readable).
      const specs = branches.map((branch) => `+${client.remoteRef(branch)}:${client.remoteRef(branch)}`);
      await git(["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", repo.path, ...specs], {
        mounts: { readable: [repo.path] },
      });
    },
    remoteRef: (branch) => `refs/remotes/${remote}/${assertRefName(branch)}`,
    revParse: (ref) => revParseCommit(git, ref),
    async worktreeAdd(path, branch, startPoint) {
      // The directory of every worktree is in sight, so that `prune` keeps the others.
      const mounts = { writable: [dirname(path)] };
      await mkdir(dirname(path), { recursive: true });
      // A worktree left at the path is removed; a registered one whose directory is gone, pruned.
      const left = await lstat(path).then(
        () => true,
        () => false,
      );
      if (left) await git(["worktree", "remove", "--force", path], { allowFailure: true, mounts });
      await git(["worktree", "prune"], { mounts });
      await git(["worktree", "add", "--force", "-B", assertRefName(branch), path, startPoint], { mounts });
      return client.at(path);
    },
    async worktreeRemove(path) {
      await git(["worktree", "remove", "--force", path], {
        allowFailure: true,
        mounts: { writable: [dirname(path)] },
      });
    },
    async checkoutBranch(branch, startPoint) {
      await git(["checkout", "--force", "-B", assertRefName(branch), startPoint]);
      await git(["clean", "-ffdq"]);
    },
    async stageAll(leaveOut = [], listed) {
      // Excluded up front: even a pathspec-less `add` asks each of them for its status.
      const nested = (listed ?? (await worktreeFiles())).nested.map((path) => `:(exclude,literal)${path}`);
      await git(["add", "--all", "--", ".", ...nested]);
      await unstage(leaveOut);
      // Checked before every commit: what the diff adds never carries a secret out.
      const diff = await git([
        "diff",
        "--cached",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--text",
        "-U0",
      ]);
      const withheld = secretsInDiff(diff.stdout, options.secrets?.() ?? []);
      // Every staged change prints at least its header, so with nothing withheld the diff says it.
      if (withheld.length === 0) return { staged: diff.stdout !== "", withheld };
      await unstage([...new Set(withheld.map((hit) => hit.path))]);
      const staged = await git(["diff", "--cached", "--quiet"], { allowFailure: true });
      return { staged: staged.exitCode === 1, withheld };
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
      return parseNumstat((await git(["diff", "--numstat", "--no-renames", from, to, "--"])).stdout);
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
    worktreeFiles,
    async listFiles() {
      return (await git(["ls-files", "-z"])).stdout.split("\0").filter(Boolean);
    },
    async committedFile(commit, path) {
      const entry = (await client.committedFiles(commit, [path])).get(path);
      return entry?.kind === "file" ? { kind: "file", text: await entry.read() } : (entry ?? null);
    },
    async committedFiles(commit, paths) {
      const listed = await git(["ls-tree", "-z", "--full-tree", commit, "--", ...paths.map(assertRepoPath)], {
        allowFailure: true,
      });
      const files = new Map<string, CommittedEntry>();
      if (listed.exitCode !== 0) return files;
      for (const [path, { mode, type, object }] of parseTreeEntries(listed.stdout)) {
        if (mode === "120000") files.set(path, { kind: "symlink" });
        else if (type === "blob")
          files.set(path, {
            kind: "file",
            read: async () => (await git(["cat-file", "blob", object])).stdout,
          });
      }
      return files;
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
      assertRefName(branch);
      // Asked for now, so that a token exchange's round trip to the app overlaps the commits' check;
      // the push's own request for it shares this one (the exchange client holds it per phase).
      if (typeof options.auth === "function") options.auth("write").catch(() => undefined);
      const repo = await locusRepository();
      const tip = (await git(["rev-parse", "--verify", "HEAD^{commit}"])).stdout.trim();
      const haves = await repo.haves();
      const refused = (await repo.has(tip))
        ? await repo.refused(tip, haves)
        : await importCommits(repo, tip, haves);
      if (refused.length > 0) {
        return {
          ok: false,
          rejected: false,
          message: `Locus refused to push these commits: ${refused.join("; ")}`,
        };
      }
      // Without commits of its own (a pointer moved to commits GitHub has) a push has nothing to sign: git moves it.
      const own = options.commitWrites ? await repo.commits.newCommits(tip, haves) : [];
      if (!options.commitWrites || own.length === 0) return repo.push(tip, branch, pushOptions.expect);
      const made = await pushThroughApi(repo.commits, options.commitWrites, {
        tip,
        branch,
        expect: pushOptions.expect,
        haves,
        remoteHead: async () => (await repo.lsRemote([`refs/heads/${branch}`])).split("\t")[0] ?? "",
      });
      if (!made.ok) return made;
      // GitHub's commits have the same trees under other shas: the worktree continues from them.
      await client.fetchBranches([branch]);
      await git(["reset", "--soft", made.head]);
      return { ok: true };
    },
    rebaseOnto(onto, upstream) {
      return rebaseStep(["rebase", "--no-autosquash", "--onto", onto, upstream]);
    },
    async rebaseContinue() {
      await client.stageAll();
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
      await (await locusRepository()).deleteBranch(assertRefName(branch), expect);
    },
  };
  return client;
}
