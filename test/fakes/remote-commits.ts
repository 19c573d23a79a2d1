/**
 * The typed fake's commit writes (`commit.via: api`, lib/github/branch-commits.ts) made on a real
 * bare remote, as GitHub makes them: a branch created at a commit, a commit appended from whole
 * files and deleted paths only while the branch's head is `expectedHeadOid` (authored by the
 * bot, committed by GitHub), and a branch moved only while it is where the caller last saw it.
 * Each commit made this way is one GitHub would show as Verified: its sha joins
 * `verifiedCommits` and a line of `verifiedFile`, which a push rule's hook reads
 * (remote-rules.ts). test/fakes/github-fake-parity.test.ts checks it against the simulator's
 * `createCommitOnBranch`. For the task world (task-world.ts).
 * https://docs.github.com/en/graphql/reference/mutations#createcommitonbranch
 */
import { execFile } from "node:child_process";
import { appendFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BranchCommitResult, NewBranchCommit } from "../../lib/github/index.ts";
import type { GitHubFake } from "./github-fake.ts";

const ZERO = "0".repeat(40);

function git(
  remote: string,
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string | Buffer } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...args],
      { cwd: remote, env: { PATH: process.env["PATH"] ?? "", ...options.env } },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`git ${args.join(" ")}: ${stderr.trim()}`, { cause: error }))
          : resolve(stdout.trim()),
    );
    // A command that reads no input may exit before its stdin is written to.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(options.input);
  });
}

/** The branch's head on the remote, or "" when there is no such branch. */
async function headOf(remote: string, branch: string): Promise<string> {
  return git(remote, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]).catch(() => "");
}

/** The head's tree with the commit's file changes: a file that exists keeps its mode, a new one is regular. */
async function treeWith(remote: string, head: string, commit: NewBranchCommit): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "locus-fake-index-"));
  const env = { GIT_INDEX_FILE: join(dir, "index") };
  try {
    await git(remote, ["read-tree", head], { env });
    const removed = commit.deletions.map(({ path }) => `0 ${ZERO}\t${path}\n`).join("");
    if (removed) await git(remote, ["update-index", "--index-info"], { env, input: removed });
    for (const { path, contents } of commit.additions) {
      const blob = await git(remote, ["hash-object", "-w", "--stdin"], {
        input: Buffer.from(contents, "base64"),
      });
      const listed = await git(remote, ["ls-tree", head, "--", path]);
      const mode = /^(100644|100755) blob /.exec(listed)?.[1] ?? "100644";
      await git(remote, ["update-index", "--add", "--cacheinfo", `${mode},${blob},${path}`], { env });
    }
    return await git(remote, ["write-tree"], { env });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export type RemoteCommittingFake = GitHubFake & {
  /** The commits GitHub made (and signed) through `createCommitOnBranch`. */
  readonly verifiedCommits: ReadonlySet<string>;
};

export function committingToRemote(
  fake: GitHubFake,
  remote: string,
  options: { readonly author: { login: string; id: number }; readonly verifiedFile: string },
): RemoteCommittingFake {
  const { store } = fake;
  const verified = new Set<string>();
  const { login, id } = options.author;
  const stale = (branch: string, expected: string) => `${branch} is not at ${expected}`;
  return {
    ...fake,
    verifiedCommits: verified,
    async createBranch(branch, sha) {
      store.record("createBranch", [branch, sha]);
      if ((await headOf(remote, branch)) !== "") return "exists";
      await git(remote, ["update-ref", `refs/heads/${branch}`, sha, ZERO]);
      store.branches.set(branch, sha);
      return "created";
    },
    async createCommitOnBranch(commit): Promise<BranchCommitResult> {
      store.record("createCommitOnBranch", [commit]);
      const head = await headOf(remote, commit.branch);
      if (head === "")
        return { ok: false, moved: false, message: `refs/heads/${commit.branch} does not exist` };
      if (head !== commit.expectedHeadOid)
        return { ok: false, moved: true, message: stale(commit.branch, commit.expectedHeadOid) };
      const tree = await treeWith(remote, head, commit);
      const [headline, body] = [commit.headline.trim(), commit.body.trim()];
      const message = body ? `${headline}\n\n${body}` : headline;
      const when = `${Math.floor(store.clock.now().getTime() / 1000)} +0000`;
      const oid = await git(remote, ["commit-tree", tree, "-p", head, "-F", "-"], {
        input: `${message}\n`,
        env: {
          GIT_AUTHOR_NAME: login,
          GIT_AUTHOR_EMAIL: `${id}+${login}@users.noreply.github.com`,
          GIT_AUTHOR_DATE: when,
          GIT_COMMITTER_NAME: "GitHub",
          GIT_COMMITTER_EMAIL: "noreply@github.com",
          GIT_COMMITTER_DATE: when,
        },
      });
      await git(remote, ["update-ref", `refs/heads/${commit.branch}`, oid, head]);
      verified.add(oid);
      await appendFile(options.verifiedFile, `${oid}\n`);
      store.branches.set(commit.branch, oid);
      return { ok: true, oid };
    },
    async moveBranch(branch, from, to): Promise<BranchCommitResult> {
      store.record("moveBranch", [branch, from, to]);
      // GitHub's updateRefs answers a stale `beforeOid` as an error, which the gateway does not call "moved".
      if ((await headOf(remote, branch)) !== from)
        return { ok: false, moved: false, message: stale(branch, from) };
      await git(remote, ["update-ref", `refs/heads/${branch}`, to, from]);
      store.branches.set(branch, to);
      return { ok: true, oid: to };
    },
  };
}
