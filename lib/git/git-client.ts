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
import type { GitClient, GitClientOptions, RebaseStep } from "./git-client-types.ts";
import { createGitRunner } from "./git-runner.ts";
import { assertRefName, assertRepoPath } from "./ref-names.ts";

export type * from "./git-client-types.ts";

export function createGitClient(options: GitClientOptions): GitClient {
  const { git, remote, target, guard } = createGitRunner(options);

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
