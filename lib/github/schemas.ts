import { z } from "zod";
import type {
  Comment,
  DispatchedRun,
  Issue,
  ListedIssue,
  Milestone,
  PullRequest,
  Review,
  ReviewComment,
  WorkflowRun,
} from "./types.ts";

// Each schema declares only the fields Locus reads; GitHub's extra fields are
// dropped, so an API addition never breaks parsing.

const user = z.object({ login: z.string(), type: z.string().optional() }).nullable();
const state = z.enum(["open", "closed"]);

// A deleted account shows as null; GitHub itself renders it as "ghost".
function login(u: z.infer<typeof user>): string {
  return u?.login ?? "ghost";
}

export const labelSchema = z.object({
  name: z.string(),
  color: z.string(),
  description: z.string().nullable(),
});

export const labelNameSchema = z.object({ name: z.string(), node_id: z.string().optional() });

export const commentSchema = z
  .object({
    id: z.number(),
    node_id: z.string().optional(),
    body: z.string().nullish(),
    user,
    author_association: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    html_url: z.string(),
  })
  .transform((c): Comment => ({
    id: c.id,
    ...(c.node_id === undefined ? {} : { nodeId: c.node_id }),
    body: c.body ?? "",
    author: login(c.user),
    authorType: c.user?.type ?? "User",
    authorAssociation: c.author_association,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
    url: c.html_url,
  }));

const issueFields = z.object({
  number: z.number(),
  node_id: z.string().optional(),
  title: z.string(),
  body: z.string().nullish(),
  state,
  labels: z.array(z.union([z.string(), labelNameSchema])),
  milestone: z.object({ number: z.number() }).nullable(),
  user,
  pull_request: z.object({}).optional(),
  html_url: z.string(),
});

function toIssue(i: z.infer<typeof issueFields>): Issue {
  return {
    number: i.number,
    ...(i.node_id === undefined ? {} : { nodeId: i.node_id }),
    title: i.title,
    body: i.body ?? "",
    state: i.state,
    labels: i.labels.map((l) => (typeof l === "string" ? l : l.name)),
    milestone: i.milestone?.number ?? null,
    author: login(i.user),
    isPullRequest: i.pull_request !== undefined,
    url: i.html_url,
  };
}

export const issueSchema = issueFields.transform(toIssue);

export const listedIssueSchema = issueFields
  .extend({ updated_at: z.string() })
  .transform((i): ListedIssue => ({ ...toIssue(i), updatedAt: i.updated_at }));

export const milestoneSchema = z
  .object({
    number: z.number(),
    title: z.string(),
    description: z.string().nullable(),
    state,
    due_on: z.string().nullable(),
    open_issues: z.number(),
    closed_issues: z.number(),
    html_url: z.string(),
  })
  .transform((m): Milestone => ({
    number: m.number,
    title: m.title,
    description: m.description ?? "",
    state: m.state,
    dueOn: m.due_on,
    openIssues: m.open_issues,
    closedIssues: m.closed_issues,
    url: m.html_url,
  }));

/** The repository a pull request's head or base branch lives in; absent in some webhook payload shapes. */
const pullRepo = z.object({ full_name: z.string() }).nullable().optional();

export const pullRequestSchema = z
  .object({
    number: z.number(),
    node_id: z.string().optional(),
    title: z.string(),
    body: z.string().nullable(),
    state,
    merged_at: z.string().nullable(),
    draft: z.boolean().optional(),
    head: z.object({ ref: z.string(), sha: z.string(), repo: pullRepo }),
    base: z.object({ ref: z.string(), repo: pullRepo }),
    user,
    html_url: z.string(),
  })
  .transform((p): PullRequest => ({
    number: p.number,
    ...(p.node_id === undefined ? {} : { nodeId: p.node_id }),
    title: p.title,
    body: p.body ?? "",
    state: p.state,
    merged: p.merged_at !== null,
    draft: p.draft ?? false,
    head: { ref: p.head.ref, sha: p.head.sha },
    base: { ref: p.base.ref },
    author: login(p.user),
    url: p.html_url,
    // GitHub gives a null head repository when the fork it came from was deleted.
    fromFork:
      p.head.repo === null ||
      (!!p.head.repo && !!p.base.repo && p.head.repo.full_name !== p.base.repo.full_name),
  }));

export const reviewCommentSchema = z
  .object({
    id: z.number(),
    body: z.string(),
    path: z.string(),
    line: z.number().nullish(),
    side: z.enum(["LEFT", "RIGHT"]).nullish(),
    diff_hunk: z.string(),
    user,
    author_association: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    in_reply_to_id: z.number().optional(),
    pull_request_review_id: z.number().nullable(),
  })
  .transform((c): ReviewComment => ({
    id: c.id,
    body: c.body,
    path: c.path,
    line: c.line ?? null,
    side: c.side ?? null,
    diffHunk: c.diff_hunk,
    author: login(c.user),
    authorAssociation: c.author_association,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
    inReplyToId: c.in_reply_to_id ?? null,
    reviewId: c.pull_request_review_id,
  }));

export const reviewSchema = z
  .object({
    id: z.number(),
    state: z.enum(["APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED", "PENDING"]),
    body: z.string().nullable(),
    user,
    author_association: z.string(),
    submitted_at: z.string().nullish(),
    commit_id: z.string().nullable(),
  })
  .transform((r): Review => ({
    id: r.id,
    state: r.state,
    body: r.body ?? "",
    author: login(r.user),
    authorAssociation: r.author_association,
    submittedAt: r.submitted_at ?? null,
    commitId: r.commit_id,
  }));

export const workflowRunsSchema = z.object({
  workflow_runs: z.array(
    z
      .object({
        id: z.number(),
        name: z.string().nullish(),
        display_title: z.string(),
        status: z.string().nullable(),
        conclusion: z.string().nullable(),
        event: z.string(),
        head_branch: z.string().nullable(),
        html_url: z.string(),
        created_at: z.string(),
      })
      .transform((r): WorkflowRun => ({
        id: r.id,
        name: r.name ?? null,
        displayTitle: r.display_title,
        status: r.status,
        conclusion: r.conclusion,
        event: r.event,
        headBranch: r.head_branch,
        url: r.html_url,
        createdAt: r.created_at,
      })),
  ),
});

/** A dispatch's answer: the run (200, asked with `return_run_details`), or nothing (204). */
export const workflowDispatchSchema = z.union([
  z
    .object({ workflow_run_id: z.number(), html_url: z.string() })
    .transform((r): DispatchedRun => ({ id: r.workflow_run_id, url: r.html_url })),
  z.union([z.undefined(), z.literal("")]).transform((): DispatchedRun | null => null),
]);

export const permissionSchema = z.object({ permission: z.string(), role_name: z.string().optional() });

export const repositorySchema = z.object({ default_branch: z.string() });

/** A label as GraphQL names it: its id lets a later label write go in one batched request. */
const labelNodeSchema = z.object({ id: z.string().optional(), name: z.string() });

export const milestoneIssuesSchema = z.object({
  repository: z
    .object({
      statusLabels: z.object({ nodes: z.array(labelNodeSchema.nullable()) }).nullish(),
      managedLabel: labelNodeSchema.nullish(),
      orderLabels: z.object({ nodes: z.array(labelNodeSchema.nullable()) }).nullish(),
      milestone: z
        .object({
          issues: z.object({
            pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
            nodes: z.array(
              z.object({
                id: z.string().optional(),
                number: z.number(),
                title: z.string(),
                body: z.string(),
                state: z.enum(["OPEN", "CLOSED"]),
                labels: z.object({ nodes: z.array(labelNodeSchema.nullable()) }).nullable(),
              }),
            ),
          }),
        })
        .nullable(),
    })
    .nullable(),
});
