/**
 * The read of an iterate round: the PR, its conversation, reviews and review
 * threads, the issue it closes with that issue's comments (the status comment
 * among them) and when GitHub created the workflow run, in one GraphQL request. GitHub links closing keywords
 * only for PRs into the default branch, so a stacked sprint PR's issue is read
 * by number in a second request.
 */
import { z } from "zod";
import type { Transport } from "./transport.ts";
import type { Comment, GitHubGateway, IssueWithComments } from "./types.ts";

// GraphQL names a bot `locus`, REST `locus[bot]`; Locus compares REST's.
const actor = z.object({ __typename: z.string(), login: z.string() }).nullable();
const ACTOR = "{ __typename login }";

function loginOf(author: z.infer<typeof actor>): string {
  if (!author) return "ghost";
  return author.__typename === "Bot" ? `${author.login}[bot]` : author.login;
}

const COMMENT_FIELDS = `databaseId body createdAt updatedAt url authorAssociation author ${ACTOR}`;

const commentSchema = z
  .object({
    databaseId: z.number(),
    body: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    url: z.string(),
    authorAssociation: z.string(),
    author: actor,
  })
  .transform((c): Comment => ({
    id: c.databaseId,
    body: c.body,
    author: loginOf(c.author),
    authorType: c.author?.__typename ?? "User",
    authorAssociation: c.authorAssociation,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    url: c.url,
  }));

const labelNames = z
  .object({ nodes: z.array(z.object({ name: z.string() }).nullable()) })
  .transform((l) => l.nodes.flatMap((label) => (label ? [label.name] : [])));

const page = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

function issueFields(commentArgs: string): string {
  return `number title body state url milestone { number } author ${ACTOR}
    labels(first: 100) { nodes { name } }
    comments(${commentArgs}) { pageInfo { hasNextPage endCursor } nodes { ${COMMENT_FIELDS} } }`;
}

const issueSchema = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string(),
  state: z.enum(["OPEN", "CLOSED"]),
  url: z.string(),
  milestone: z.object({ number: z.number() }).nullable(),
  author: actor,
  labels: labelNames,
  comments: z.object({ pageInfo: page, nodes: z.array(commentSchema) }),
});

type IssuePage = z.infer<typeof issueSchema>;

function toIssue(issue: IssuePage, comments: Comment[]): IssueWithComments {
  return {
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state === "OPEN" ? "open" : "closed",
    labels: issue.labels,
    milestone: issue.milestone?.number ?? null,
    author: loginOf(issue.author),
    isPullRequest: false,
    url: issue.url,
    comments,
  };
}

export const PULL_REQUEST_FEEDBACK_QUERY = /* GraphQL */ `
  query PullRequestFeedback(
    $owner: String!
    $name: String!
    $number: Int!
    $runUrl: URI!
    $withRun: Boolean!
  ) {
    run: resource(url: $runUrl) @include(if: $withRun) {
      __typename
      ... on WorkflowRun {
        createdAt
      }
    }
    repository(owner: $owner, name: $name) {
      pullRequest(number: $number) {
        id number title body state merged isDraft url headRefName headRefOid baseRefName author ${ACTOR}
        labels(first: 100) { nodes { name } }
        comments(last: 100) { nodes { ${COMMENT_FIELDS} } }
        reviews(last: 100) {
          nodes { databaseId state body submittedAt updatedAt authorAssociation author ${ACTOR} commit { oid } }
        }
        reviewThreads(first: 100) {
          nodes {
            id isResolved isOutdated path line
            comments(first: 100) { nodes { body createdAt updatedAt diffHunk author ${ACTOR} } }
          }
        }
        closingIssuesReferences(first: 10) { nodes { ${issueFields("first: 100")} } }
      }
    }
  }
`;

export const ISSUE_WITH_COMMENTS_QUERY = /* GraphQL */ `
  query IssueWithComments($owner: String!, $name: String!, $number: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      issue(number: $number) { ${issueFields("first: 100, after: $after")} }
    }
  }
`;

const feedbackSchema = z.object({
  run: z.object({ __typename: z.string(), createdAt: z.string().optional() }).nullish(),
  repository: z.object({
    pullRequest: z
      .object({
        id: z.string(),
        number: z.number(),
        title: z.string(),
        body: z.string(),
        state: z.enum(["OPEN", "CLOSED", "MERGED"]),
        merged: z.boolean(),
        isDraft: z.boolean(),
        url: z.string(),
        headRefName: z.string(),
        headRefOid: z.string(),
        baseRefName: z.string(),
        author: actor,
        labels: labelNames,
        comments: z.object({ nodes: z.array(commentSchema) }),
        reviews: z.object({
          nodes: z.array(
            z.object({
              databaseId: z.number(),
              state: z.enum(["APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED", "PENDING"]),
              body: z.string(),
              submittedAt: z.string().nullable(),
              updatedAt: z.string(),
              authorAssociation: z.string(),
              author: actor,
              commit: z.object({ oid: z.string() }).nullable(),
            }),
          ),
        }),
        reviewThreads: z.object({
          nodes: z.array(
            z.object({
              id: z.string(),
              isResolved: z.boolean(),
              isOutdated: z.boolean(),
              path: z.string(),
              line: z.number().nullable(),
              comments: z.object({
                nodes: z.array(
                  z.object({
                    body: z.string(),
                    createdAt: z.string(),
                    updatedAt: z.string(),
                    diffHunk: z.string(),
                    author: actor,
                  }),
                ),
              }),
            }),
          ),
        }),
        closingIssuesReferences: z.object({ nodes: z.array(issueSchema) }).nullable(),
      })
      .nullable(),
  }),
});

const issueQuerySchema = z.object({ repository: z.object({ issue: issueSchema.nullable() }) });

type PullFeedbackOps = Pick<GitHubGateway, "getPullRequestFeedback">;

/** GitHub answers a number that names nothing with a NOT_FOUND error, not with null. */
function isNotFound(error: unknown): boolean {
  const errors = (error as { cause?: { errors?: unknown } }).cause?.errors;
  return Array.isArray(errors) && errors.some((e: { type?: unknown }) => e.type === "NOT_FOUND");
}

export function pullFeedbackOps(t: Transport): PullFeedbackOps {
  const repo = { owner: t.repo.owner, name: t.repo.repo };

  async function issuePage(number: number, after: string | null): Promise<IssuePage | null> {
    try {
      const data = await t.graphql(
        "IssueWithComments",
        ISSUE_WITH_COMMENTS_QUERY,
        { ...repo, number, after },
        issueQuerySchema,
      );
      return data.repository.issue;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** The issue with every comment: pages after the first only for issues past 100 comments. */
  async function wholeIssue(first: IssuePage | null): Promise<IssueWithComments | null> {
    if (!first) return null;
    const comments = [...first.comments.nodes];
    let { hasNextPage, endCursor } = first.comments.pageInfo;
    while (hasNextPage && endCursor !== null) {
      const next = await issuePage(first.number, endCursor);
      if (!next) break;
      comments.push(...next.comments.nodes);
      ({ hasNextPage, endCursor } = next.comments.pageInfo);
    }
    return toIssue(first, comments);
  }

  return {
    async getPullRequestFeedback(number, { linkedIssue, runUrl }) {
      let data: z.infer<typeof feedbackSchema>;
      try {
        data = await t.graphql(
          "PullRequestFeedback",
          PULL_REQUEST_FEEDBACK_QUERY,
          // The variable is required even when the field is skipped.
          { ...repo, number, runUrl: runUrl ?? "https://github.com/", withRun: runUrl !== undefined },
          feedbackSchema,
        );
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
      const pr = data.repository.pullRequest;
      if (!pr) return null;
      const linked = linkedIssue(pr.headRefName);
      const closing = (pr.closingIssuesReferences?.nodes ?? []).find((issue) => issue.number === linked);
      return {
        runCreatedAt: data.run?.__typename === "WorkflowRun" ? (data.run.createdAt ?? null) : null,
        pr: {
          nodeId: pr.id,
          number: pr.number,
          title: pr.title,
          body: pr.body,
          state: pr.state === "OPEN" ? "open" : "closed",
          merged: pr.merged,
          draft: pr.isDraft,
          head: { ref: pr.headRefName, sha: pr.headRefOid },
          base: { ref: pr.baseRefName },
          author: loginOf(pr.author),
          url: pr.url,
          labels: pr.labels,
        },
        comments: pr.comments.nodes,
        reviews: pr.reviews.nodes.map((review) => ({
          id: review.databaseId,
          state: review.state,
          body: review.body,
          author: loginOf(review.author),
          authorAssociation: review.authorAssociation,
          submittedAt: review.submittedAt,
          updatedAt: review.updatedAt,
          commitId: review.commit?.oid ?? null,
        })),
        threads: pr.reviewThreads.nodes.map((thread) => ({
          id: thread.id,
          isResolved: thread.isResolved,
          isOutdated: thread.isOutdated,
          path: thread.path,
          line: thread.line,
          comments: thread.comments.nodes.map((comment) => ({
            author: loginOf(comment.author),
            body: comment.body,
            createdAt: comment.createdAt,
            updatedAt: comment.updatedAt,
            diffHunk: comment.diffHunk,
          })),
        })),
        linkedIssue:
          linked === undefined ? null : await wholeIssue(closing ?? (await issuePage(linked, null))),
      };
    },
  };
}
