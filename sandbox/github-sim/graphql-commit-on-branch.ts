/**
 * `createCommitOnBranch`: GitHub makes the commit itself, from whole files (base64) and deleted
 * paths, on top of the branch's head, only while that head is `expectedHeadOid`; the author is
 * the token's owner, the committer GitHub, and GitHub signs it, so it is Verified
 * (`verification.verified: true` in the commit API). Here the commit carries a stand-in
 * signature header and its sha joins the repository's verified commits. A file that exists keeps
 * its mode; a new one is a regular file: the API cannot set modes.
 * https://docs.github.com/en/graphql/reference/mutations#createcommitonbranch
 */
import { GraphQLError } from "graphql";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SimCore } from "./core.ts";
import { git, isAncestor, resolveCommit } from "./git.ts";
import { databaseIdOf, forbidden, inputOf, stringField, unresolvable } from "./graphql-mutations.ts";
import type { GraphqlContext } from "./graphql-resolvers.ts";
import type { Repo, User } from "./model.ts";
import { findRepo, hasPermission, permissionOf } from "./store.ts";

type Args = Record<string, unknown>;

const SIGNATURE = [
  "gpgsig -----BEGIN PGP SIGNATURE-----",
  " ",
  " c2ltdWxhdGVkIEdpdEh1YiBzaWduYXR1cmU=",
  " -----END PGP SIGNATURE-----",
];

function failure(type: string, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { type } });
}

function targetRepo(core: SimCore, viewer: User, input: Args): { repo: Repo; branch: string } {
  const branchInput = (typeof input.branch === "object" && input.branch !== null ? input.branch : {}) as Args;
  const [owner = "", name = ""] = stringField(branchInput, "repositoryNameWithOwner").split("/");
  const repo = findRepo(core.store, owner, name);
  if (!repo || permissionOf(core.store, repo, viewer.login) === "none") {
    throw failure("NOT_FOUND", `Could not resolve to a Repository with the name '${owner}/${name}'.`);
  }
  if (!hasPermission(permissionOf(core.store, repo, viewer.login), "write"))
    throw forbidden(viewer.login, "CreateCommitOnBranch");
  const branch = stringField(branchInput, "branchName").replace(/^refs\/heads\//, "");
  return { repo, branch };
}

function signedCommit(tree: string, parent: string, author: User, message: string, at: Date): string {
  const when = `${Math.floor(at.getTime() / 1000)} +0000`;
  const email = `${author.id}+${author.login}@users.noreply.github.com`;
  return [
    `tree ${tree}`,
    `parent ${parent}`,
    `author ${author.login} <${email}> ${when}`,
    `committer GitHub <noreply@github.com> ${when}`,
    ...SIGNATURE,
    "",
    message,
    "",
  ].join("\n");
}

async function treeWith(repo: Repo, head: string, input: Args): Promise<string> {
  const changes = (
    typeof input.fileChanges === "object" && input.fileChanges !== null ? input.fileChanges : {}
  ) as { additions?: Args[]; deletions?: Args[] };
  const dir = await mkdtemp(join(tmpdir(), "github-sim-index-"));
  const env = { GIT_INDEX_FILE: join(dir, "index") };
  try {
    await git(repo.gitDir, ["read-tree", head], { env });
    // Mode 0 takes the path out of the index (a bare repository has no work tree for --force-remove).
    const removed = (changes.deletions ?? []).map(
      (deletion) => `0 ${"0".repeat(40)}\t${stringField(deletion, "path")}\n`,
    );
    if (removed.length > 0)
      await git(repo.gitDir, ["update-index", "--index-info"], { env, input: removed.join("") });
    for (const addition of changes.additions ?? []) {
      const path = stringField(addition, "path");
      const contents = Buffer.from(stringField(addition, "contents"), "base64");
      const blob = (await git(repo.gitDir, ["hash-object", "-w", "--stdin"], { input: contents })).trim();
      const listed = await git(repo.gitDir, ["ls-tree", head, "--", path]);
      const mode = /^(100644|100755) blob /.exec(listed)?.[1] ?? "100644";
      await git(repo.gitDir, ["update-index", "--add", "--cacheinfo", `${mode},${blob},${path}`], { env });
    }
    return (await git(repo.gitDir, ["write-tree"], { env })).trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `updateRefs`: each ref moved only while it is at `beforeOid` (when given), backwards only with
 * `force`. https://docs.github.com/en/graphql/reference/mutations#updaterefs
 */
async function updateRefs(core: SimCore, viewer: User, input: Args): Promise<void> {
  const repositoryId = stringField(input, "repositoryId");
  const databaseId = databaseIdOf(repositoryId, "R");
  const repo = [...core.store.repos.values()].find((candidate) => candidate.id === databaseId);
  if (!repo || permissionOf(core.store, repo, viewer.login) === "none") throw unresolvable(repositoryId);
  if (!hasPermission(permissionOf(core.store, repo, viewer.login), "write"))
    throw forbidden(viewer.login, "UpdateRefs");
  const updates = Array.isArray(input.refUpdates) ? (input.refUpdates as Args[]) : [];
  for (const update of updates) {
    const name = stringField(update, "name");
    const current = await resolveCommit(repo.gitDir, name);
    const after = await resolveCommit(repo.gitDir, stringField(update, "afterOid"));
    if (!current || !after) throw failure("NOT_FOUND", `Could not resolve ${name} or its new value.`);
    const before = stringField(update, "beforeOid");
    if (before && before !== current) throw failure("STALE_DATA", `${name} is not at ${before}.`);
    if (update.force !== true && !(await isAncestor(repo.gitDir, current, after)))
      throw failure("UNPROCESSABLE", `Update of ${name} is not a fast forward.`);
    await git(repo.gitDir, ["update-ref", name, after, current]);
  }
}

export function commitOnBranchRoot(context: GraphqlContext): Record<string, unknown> {
  const { core, viewer } = context;
  return {
    updateRefs: async (args: Args) => {
      const input = inputOf(args);
      await updateRefs(core, viewer, input);
      return { clientMutationId: input.clientMutationId ?? null };
    },
    createCommitOnBranch: async (args: Args) => {
      const input = inputOf(args);
      const { repo, branch } = targetRepo(core, viewer, input);
      const ref = `refs/heads/${branch}`;
      const head = await resolveCommit(repo.gitDir, ref);
      if (!head) throw failure("NOT_FOUND", `A ref named "${ref}" does not exist.`);
      const expected = stringField(input, "expectedHeadOid");
      if (expected !== head) {
        throw failure(
          "STALE_DATA",
          `Expected branch to point to "${expected}" but it did not. Pull and try again.`,
        );
      }
      const message = (
        typeof input.message === "object" && input.message !== null ? input.message : {}
      ) as Args;
      const headline = stringField(message, "headline").trim();
      if (headline === "") throw failure("UNPROCESSABLE", "Headline can't be blank");
      const body = stringField(message, "body").trim();
      const tree = await treeWith(repo, head, input);
      const text = signedCommit(
        tree,
        head,
        viewer,
        body ? `${headline}\n\n${body}` : headline,
        core.store.now(),
      );
      const oid = (
        await git(repo.gitDir, ["hash-object", "-t", "commit", "-w", "--stdin"], { input: text })
      ).trim();
      await git(repo.gitDir, ["update-ref", ref, oid, head]);
      (repo.verifiedCommits ??= new Set()).add(oid);
      return {
        clientMutationId: input.clientMutationId ?? null,
        commit: { oid, id: `C_${oid}`, message: text.split("\n\n").slice(1).join("\n\n").trim() },
        ref: { name: branch, prefix: "refs/heads/" },
      };
    },
  };
}
