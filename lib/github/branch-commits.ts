/**
 * Commits GitHub makes itself (config `commit.via: api`): a branch created at a commit, and a
 * commit appended to it through `createCommitOnBranch`, which GitHub signs, so it shows as
 * Verified where a ruleset requires signed commits.
 * https://docs.github.com/en/graphql/reference/mutations#createcommitonbranch
 * `expectedHeadOid` is the lease: GitHub refuses the commit when the branch moved. After a
 * failed answer the gateway looks whether the branch's head is the commit it asked for (same
 * parent, same message) before it sends again, as every create does (create-once.ts).
 */
import { z } from "zod";
import { GitHubError } from "./errors.ts";
import type { Transport } from "./transport-types.ts";
import type { BranchCommitResult, GitHubGateway } from "./types.ts";

type BranchCommitOps = Pick<GitHubGateway, "createBranch" | "createCommitOnBranch" | "moveBranch">;

export const CREATE_COMMIT_ON_BRANCH_MUTATION = /* GraphQL */ `
  mutation CreateCommitOnBranch($input: CreateCommitOnBranchInput!) {
    createCommitOnBranch(input: $input) {
      commit {
        oid
      }
    }
  }
`;

/** The branch's head, its parent and message: did a commit that failed to answer land anyway? */
export const BRANCH_HEAD_QUERY = /* GraphQL */ `
  query BranchHead($owner: String!, $name: String!, $ref: String!) {
    repository(owner: $owner, name: $name) {
      ref(qualifiedName: $ref) {
        target {
          oid
          ... on Commit {
            message
            parents(first: 1) {
              nodes {
                oid
              }
            }
          }
        }
      }
    }
  }
`;

export const REPOSITORY_ID_QUERY = /* GraphQL */ `
  query RepositoryId($owner: String!, $name: String!) {
    repository(owner: $owner, name: $name) {
      id
    }
  }
`;

/** A branch moved only while it is where Locus last saw it (`beforeOid`), even backwards (`force`). */
export const MOVE_BRANCH_MUTATION = /* GraphQL */ `
  mutation MoveBranch($repositoryId: ID!, $name: GitRefname!, $before: GitObjectID!, $after: GitObjectID!) {
    updateRefs(
      input: {
        repositoryId: $repositoryId
        refUpdates: [{ name: $name, beforeOid: $before, afterOid: $after, force: true }]
      }
    ) {
      clientMutationId
    }
  }
`;

const createdSchema = z.object({
  createCommitOnBranch: z.object({ commit: z.object({ oid: z.string() }) }),
});

const headSchema = z.object({
  repository: z.object({
    ref: z
      .object({
        target: z.object({
          oid: z.string(),
          message: z.string().optional(),
          parents: z.object({ nodes: z.array(z.object({ oid: z.string() })) }).optional(),
        }),
      })
      .nullable(),
  }),
});

// GitHub's words when `expectedHeadOid` is not the branch's head.
const MOVED = /expected branch to point to/i;
// GitHub's words when the branch to create is already there.
const EXISTS = /reference already exists/i;

function detailOf(error: unknown): string {
  return error instanceof GitHubError ? `${error.detail ?? ""} ${error.message}` : String(error);
}

export function branchCommitOps(t: Transport): BranchCommitOps {
  const ref = (branch: string) => `refs/heads/${branch}`;
  return {
    async createBranch(branch, sha) {
      try {
        await t.create({
          what: `branch ${branch}`,
          send: (once) =>
            once.rest("POST /repos/{owner}/{repo}/git/refs", { ref: ref(branch), sha }, z.unknown()),
          landed: async () => {
            const found = await t.graphql(
              "BranchHead",
              BRANCH_HEAD_QUERY,
              { owner: t.repo.owner, name: t.repo.repo, ref: ref(branch) },
              headSchema,
            );
            return found.repository.ref?.target.oid === sha ? true : null;
          },
        });
        return "created";
      } catch (error) {
        if (error instanceof GitHubError && error.status === 422 && EXISTS.test(detailOf(error))) {
          return "exists";
        }
        throw error;
      }
    },
    // Not a create: GitHub refuses a second send whose `beforeOid` no longer holds, so a plain retry is safe.
    async moveBranch(branch, from, to): Promise<BranchCommitResult> {
      try {
        const { repository } = await t.graphql(
          "RepositoryId",
          REPOSITORY_ID_QUERY,
          { owner: t.repo.owner, name: t.repo.repo },
          z.object({ repository: z.object({ id: z.string() }) }),
        );
        await t.graphql(
          "MoveBranch",
          MOVE_BRANCH_MUTATION,
          { repositoryId: repository.id, name: ref(branch), before: from, after: to },
          z.unknown(),
        );
        return { ok: true, oid: to };
      } catch (error) {
        if (!(error instanceof GitHubError)) throw error;
        return { ok: false, moved: false, message: error.detail ?? error.message };
      }
    },
    async createCommitOnBranch(commit): Promise<BranchCommitResult> {
      const message = commit.body ? `${commit.headline}\n\n${commit.body}` : commit.headline;
      try {
        const oid = await t.create({
          what: `commit on ${commit.branch}`,
          send: async (once) =>
            (
              await once.graphql(
                "CreateCommitOnBranch",
                CREATE_COMMIT_ON_BRANCH_MUTATION,
                {
                  input: {
                    branch: {
                      repositoryNameWithOwner: `${t.repo.owner}/${t.repo.repo}`,
                      branchName: commit.branch,
                    },
                    expectedHeadOid: commit.expectedHeadOid,
                    message: { headline: commit.headline, ...(commit.body ? { body: commit.body } : {}) },
                    fileChanges: { additions: commit.additions, deletions: commit.deletions },
                  },
                },
                createdSchema,
              )
            ).createCommitOnBranch.commit.oid,
          landed: async () => {
            const found = await t.graphql(
              "BranchHead",
              BRANCH_HEAD_QUERY,
              { owner: t.repo.owner, name: t.repo.repo, ref: ref(commit.branch) },
              headSchema,
            );
            const head = found.repository.ref?.target;
            const parent = head?.parents?.nodes[0]?.oid;
            return head && parent === commit.expectedHeadOid && head.message?.trim() === message.trim()
              ? head.oid
              : null;
          },
        });
        return { ok: true, oid };
      } catch (error) {
        if (!(error instanceof GitHubError)) throw error;
        return { ok: false, moved: MOVED.test(detailOf(error)), message: error.detail ?? error.message };
      }
    },
  };
}
