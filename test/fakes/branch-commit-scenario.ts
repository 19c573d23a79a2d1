/**
 * Commits GitHub makes itself (`commit.via: api`) in gateway calls, and what the repository's git
 * then holds, for github-fake-parity.test.ts: the same scenario through the real gateway on the
 * simulator and through the typed fake committing to a bare remote (remote-commits.ts) must
 * answer the same.
 */
import { execFileSync } from "node:child_process";
import type { CommitWrites } from "../../lib/github/index.ts";

const base64 = (text: string) => Buffer.from(text).toString("base64");

/** `a.txt` deleted, `b.txt` and `docs/c.txt` added on a new branch at `mainSha`, then the branch moved back. */
export async function branchCommitScenario(
  gateway: CommitWrites,
  gitDir: string,
  mainSha: string,
  verified: (sha: string) => boolean,
) {
  const git = (args: readonly string[]) => execFileSync("git", args, { cwd: gitDir }).toString().trim();
  const branch = "locus/issue-7";
  const created = [await gateway.createBranch(branch, mainSha), await gateway.createBranch(branch, mainSha)];
  const change = {
    branch,
    headline: "feat: two",
    body: "Says two.",
    additions: [
      { path: "b.txt", contents: base64("two\n") },
      { path: "docs/c.txt", contents: base64("three\n") },
    ],
    deletions: [{ path: "a.txt" }],
  };
  const made = await gateway.createCommitOnBranch({ ...change, expectedHeadOid: mainSha });
  const oid = made.ok ? made.oid : "";
  const outcome = ({ ok, ...rest }: Awaited<ReturnType<CommitWrites["moveBranch"]>>) => ({
    ok,
    moved: "moved" in rest ? rest.moved : undefined,
  });
  const stale = outcome(await gateway.createCommitOnBranch({ ...change, expectedHeadOid: mainSha }));
  const missing = outcome(
    await gateway.createCommitOnBranch({ ...change, branch: "no-such-branch", expectedHeadOid: mainSha }),
  );
  const staleMove = outcome(await gateway.moveBranch(branch, mainSha, mainSha));
  const commit = {
    files: git(["ls-tree", "-r", "--name-only", oid]).split("\n"),
    b: git(["show", `${oid}:b.txt`]),
    people: git(["log", "-1", "--format=%an <%ae> / %cn <%ce>", oid]),
    message: git(["log", "-1", "--format=%B", oid]),
    parentIsMain: git(["rev-parse", `${oid}^`]) === mainSha,
    verified: verified(oid),
    isHead: git(["rev-parse", `refs/heads/${branch}`]) === oid,
  };
  const back = outcome(await gateway.moveBranch(branch, oid, mainSha));
  return {
    created,
    made: made.ok,
    stale,
    missing,
    staleMove,
    commit,
    back,
    backAtMain: git(["rev-parse", `refs/heads/${branch}`]) === mainSha,
  };
}
