/**
 * The only repository Locus runs git in on the host once the agent has started: a bare
 * repository Locus creates itself, outside every sandbox mount, whose config, hooks and
 * attributes are Locus's (no templates, hooks off, global and system config off). Objects come
 * in from the remote (fetch) or from a bundle the sandboxed git wrote (a run's commits); they are
 * checked (pushed-objects.ts) before anything leaves, and they leave by an explicit URL, `https`
 * or `file` only (plain http only to a loopback remote, a local GitHub such as the simulator).
 * Nothing in here reads a file the agent wrote except the bundle, and that only as data.
 */
import { mkdir, stat } from "node:fs/promises";
import type { CommitSource } from "./api-commits.ts";
import { parseTreeChanges } from "./commit-changes.ts";
import { execGit, execGitBytes, type ExecGit } from "./exec-git.ts";
import type { PushResult, RemoteAccess } from "./git-client-types.ts";
import { NO_AUTH, type PushAuth } from "./push-auth.ts";
import { MAX_BLOB_BYTES, oversizedBlobs, refusedChanges } from "./pushed-objects.ts";
import { NO_REPOSITORY_PROGRAMS } from "./no-repository-programs.ts";

const MAX_BUNDLE_BYTES = 1024 * 1024 * 1024;

export interface LocusRepositoryOptions {
  /** An empty or absent directory Locus owns. */
  readonly path: string;
  /** The remote's URL, read before the agent ran. */
  readonly url: string;
  readonly remote: string;
  readonly auth: PushAuth | ((access: RemoteAccess) => Promise<PushAuth>);
  /** PATH, to find git; nothing else of the runner's environment is passed. */
  readonly searchPath: string;
  readonly exec?: ExecGit;
}

export interface LocusRepository {
  readonly path: string;
  /** The commits it holds refs for: what a bundle need not carry. */
  haves(): Promise<string[]>;
  has(sha: string): Promise<boolean>;
  /** Copies the objects of a bundle's `HEAD` in; answers why they may not be pushed (none: they may). */
  importBundle(bundle: string, tip: string, haves: readonly string[]): Promise<string[]>;
  /** Checks `tip` against `haves` again (a tip already copied in by an earlier, refused bundle). */
  refused(tip: string, haves: readonly string[]): Promise<string[]>;
  push(tip: string, branch: string, expect?: string): Promise<PushResult>;
  deleteBranch(branch: string, expect: string): Promise<void>;
  lsRemote(refs: readonly string[]): Promise<string>;
  /** Fetches `refs/heads/<b>` to `refs/remotes/<remote>/<b>` for each branch. */
  fetch(branches: readonly string[]): Promise<void>;
  /** The commits, messages and files `commit.via: api` recreates, read from this repository's objects. */
  readonly commits: CommitSource;
}

export async function openLocusRepository(options: LocusRepositoryOptions): Promise<LocusRepository> {
  const exec = options.exec ?? execGit;
  const env = {
    PATH: options.searchPath,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
  };
  const REMOTE_SAFE = [
    "-c",
    "protocol.allow=never",
    "-c",
    "protocol.https.allow=always",
    "-c",
    "protocol.file.allow=always",
    ...(plainHttpLoopback(options.url) ? ["-c", "protocol.http.allow=always"] : []),
    "-c",
    "core.sshCommand=false",
    "-c",
    "credential.helper=",
  ];
  const git = async (
    args: readonly string[],
    extra: { remote?: RemoteAccess; allowFailure?: boolean } = {},
  ) => {
    const credentials =
      extra.remote === undefined
        ? NO_AUTH
        : typeof options.auth === "function"
          ? await options.auth(extra.remote)
          : options.auth;
    // No `git maintenance run --auto` after each fetch: the repository lives for one run.
    const housekeeping = ["-c", "maintenance.auto=false"];
    return exec([...NO_REPOSITORY_PROGRAMS, ...housekeeping, ...(extra.remote ? REMOTE_SAFE : []), ...args], {
      cwd: options.path,
      // Set last: the credentials' own variables cannot turn global or system config back on.
      env: { ...credentials.env, ...env },
      allowFailure: extra.allowFailure,
    });
  };
  await mkdir(options.path, { recursive: true });
  await git(["init", "--quiet", "--bare", "--template=", "."]);
  const remoteRef = (branch: string) => `refs/remotes/${options.remote}/${branch}`;
  // One ref per import: worktrees push in parallel.
  let imports = 0;

  async function check(tip: string, haves: readonly string[]): Promise<string[]> {
    const not = ["--not", ...haves];
    // Both read only: run side by side.
    const [raw, sizes] = await Promise.all([
      git(["log", "--raw", "-z", "--no-renames", "--no-abbrev", "-m", "--format=", tip, ...not]),
      git([
        "rev-list",
        "--objects",
        `--filter=blob:limit=${MAX_BLOB_BYTES}`,
        "--filter-print-omitted",
        tip,
        ...not,
      ]),
    ]);
    return [...refusedChanges(raw.stdout), ...oversizedBlobs(sizes.stdout)];
  }

  return {
    path: options.path,
    async haves() {
      const { stdout } = await git(["for-each-ref", "--format=%(objectname)"]);
      return [...new Set(stdout.split("\n").filter(Boolean))];
    },
    async has(sha) {
      return (await git(["cat-file", "-e", `${sha}^{commit}`], { allowFailure: true })).exitCode === 0;
    },
    async importBundle(bundle, tip, haves) {
      if ((await stat(bundle)).size > MAX_BUNDLE_BYTES) return ["the commits are over 1 GB"];
      imports += 1;
      const incoming = `refs/locus/incoming-${imports}`;
      await git([
        "-c",
        "transfer.fsckObjects=true",
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        bundle,
        `+HEAD:${incoming}`,
      ]);
      // Deleted only if it holds `tip`: one command checks what the bundle brought and clears the ref.
      const cleared = await git(["update-ref", "-d", incoming, tip], { allowFailure: true });
      if (cleared.exitCode === 0) return check(tip, haves);
      const got = (await git(["rev-parse", incoming])).stdout.trim();
      await git(["update-ref", "-d", incoming]);
      return [`the bundle holds ${got}, not ${tip}`];
    },
    refused: check,
    async push(tip, branch, expect) {
      const ref = `refs/heads/${branch}`;
      const lease = expect === undefined ? [] : [`--force-with-lease=${ref}:${expect}`];
      const result = await git(
        ["push", "--porcelain", "--no-verify", ...lease, options.url, `${tip}:${ref}`],
        {
          remote: "write",
          allowFailure: true,
        },
      );
      if (result.exitCode === 0) {
        await git(["update-ref", remoteRef(branch), tip]);
        return { ok: true };
      }
      const text = `${result.stdout}\n${result.stderr}`;
      return {
        ok: false,
        rejected: /\[rejected\]|stale info|non-fast-forward|fetch first/.test(text),
        message: text.trim(),
      };
    },
    async deleteBranch(branch, expect) {
      const ref = `refs/heads/${branch}`;
      await git(["push", "--no-verify", `--force-with-lease=${ref}:${expect}`, options.url, `:${ref}`], {
        remote: "write",
        allowFailure: true,
      });
    },
    async lsRemote(refs) {
      return (await git(["ls-remote", "--heads", options.url, ...refs], { remote: "read" })).stdout;
    },
    commits: {
      async newCommits(tip, haves) {
        const { stdout } = await git([
          "rev-list",
          "--reverse",
          "--topo-order",
          "--parents",
          tip,
          "--not",
          ...haves,
        ]);
        return stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => {
            const [sha = "", ...parents] = line.split(" ");
            return { sha, parents };
          });
      },
      async message(sha) {
        return (await git(["cat-file", "commit", sha])).stdout.split("\n\n").slice(1).join("\n\n");
      },
      async changes(parent, sha) {
        const raw = await git(["diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", parent, sha]);
        return parseTreeChanges(raw.stdout);
      },
      async blobSize(blob) {
        return Number((await git(["cat-file", "-s", blob])).stdout.trim());
      },
      blob: (blob) =>
        execGitBytes([...NO_REPOSITORY_PROGRAMS, "cat-file", "blob", blob], { cwd: options.path, env }),
    },
    async fetch(branches) {
      const specs = branches.map((branch) => `+refs/heads/${branch}:${remoteRef(branch)}`);
      await git(["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", options.url, ...specs], {
        remote: "read",
      });
    },
  };
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
