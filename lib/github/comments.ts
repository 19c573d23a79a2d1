import { z } from "zod";
import { isLocus } from "./locus-identity.ts";
import { commentSchema } from "./schemas.ts";
import { actorSchema } from "./task-node-schemas.ts";
import type { Transport } from "./transport-types.ts";
import type { Comment, GitHubGateway } from "./types.ts";

type CommentOps = Pick<
  GitHubGateway,
  "createComment" | "updateComment" | "findCommentByMarker" | "upsertComment" | "addReaction"
>;

/** The hidden first line that keys a sticky comment, e.g. `<!-- locus:status -->`. */
function markerLine(marker: string): string {
  if (!/^[\w:.-]+$/.test(marker)) {
    throw new Error(`Comment marker "${marker}" must be letters, digits and : . _ - only`);
  }
  return `<!-- ${marker} -->`;
}

// GitHub may hand a body back with CRLF line ends; they are the same text.
export function sameText(a: string, b: string): boolean {
  return a.replace(/\r\n/g, "\n") === b.replace(/\r\n/g, "\n");
}

function hiddenFirstLine(body: string): string | null {
  const first = body.split(/\r?\n/, 1)[0] ?? "";
  return /^<!--.*-->$/.test(first) ? first : null;
}

/** A comment as the "did it land?" reads see it. */
export type LandedCandidate = { body: string; createdAt: string; viewerDidAuthor: boolean };

/**
 * Whether `candidate` is the comment the gateway tried to post as `body`:
 * written by the token's own identity no earlier than `since`, and keyed by
 * the same hidden first line (`<!-- locus:… -->`) or, without one, the same text.
 */
export function isLandedComment(candidate: LandedCandidate, body: string, since: Date): boolean {
  if (!candidate.viewerDidAuthor || Date.parse(candidate.createdAt) < since.getTime()) return false;
  const key = hiddenFirstLine(body);
  return key === null ? sameText(candidate.body, body) : hiddenFirstLine(candidate.body) === key;
}

/** The newest 100 comments of an issue or PR, with whether the token wrote them. */
export const COMMENT_LANDED_QUERY = /* GraphQL */ `
  query CommentLanded($owner: String!, $name: String!, $number: Int!) {
    repository(owner: $owner, name: $name) {
      issueOrPullRequest(number: $number) {
        ... on Issue {
          comments(last: 100) {
            nodes {
              ...LandedComment
            }
          }
        }
        ... on PullRequest {
          comments(last: 100) {
            nodes {
              ...LandedComment
            }
          }
        }
      }
    }
  }
  fragment LandedComment on IssueComment {
    id
    databaseId
    body
    url
    createdAt
    updatedAt
    authorAssociation
    viewerDidAuthor
    author {
      __typename
      login
    }
  }
`;

/** An issue comment as GraphQL gives it (`id`, `databaseId`, body, times, association, author). */
const graphqlCommentFields = z.object({
  id: z.string(),
  databaseId: z.number(),
  body: z.string(),
  url: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  authorAssociation: z.string(),
  author: z.object({ __typename: z.string(), login: z.string() }).nullable(),
});

function graphqlComment(c: z.infer<typeof graphqlCommentFields>): Comment {
  return {
    id: c.databaseId,
    nodeId: c.id,
    body: c.body,
    author: actorSchema.parse(c.author),
    authorType: c.author?.__typename === "Bot" ? "Bot" : "User",
    authorAssociation: c.authorAssociation,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    url: c.url,
  };
}

/** A comment a GraphQL mutation or read returned, as Locus's `Comment`. */
export const graphqlCommentSchema = graphqlCommentFields.transform(graphqlComment);

const landedCommentSchema = graphqlCommentFields
  .extend({ viewerDidAuthor: z.boolean() })
  .transform((c): Comment & LandedCandidate => ({
    ...graphqlComment(c),
    viewerDidAuthor: c.viewerDidAuthor,
  }));

const commentLandedSchema = z.object({
  repository: z.object({
    issueOrPullRequest: z
      .object({ comments: z.object({ nodes: z.array(landedCommentSchema.nullable()) }).optional() })
      .nullable(),
  }),
});

/** The comment this token made on the issue with this body since then, if GitHub has it (create-once.ts). */
export async function findLandedComment(
  t: Transport,
  issue: number,
  body: string,
  since: Date,
): Promise<Comment | null> {
  const read = await t.graphql(
    "CommentLanded",
    COMMENT_LANDED_QUERY,
    { owner: t.repo.owner, name: t.repo.repo, number: issue },
    commentLandedSchema,
  );
  const comments = read.repository.issueOrPullRequest?.comments?.nodes ?? [];
  const found = comments.find((c) => c !== null && isLandedComment(c, body, since));
  if (!found) return null;
  const { viewerDidAuthor: _mine, ...comment } = found;
  return comment;
}

export function commentOps(
  t: Transport,
  listIssueComments: GitHubGateway["listIssueComments"],
  ownLogins: readonly string[],
): CommentOps {
  const createComment = (issue: number, body: string): Promise<Comment> =>
    t.create({
      what: `comment on #${issue}`,
      send: (once) =>
        once.rest(
          "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
          { issue_number: issue, body },
          commentSchema,
        ),
      landed: (since) => findLandedComment(t, issue, body, since),
    });

  const updateComment = (commentId: number, body: string): Promise<Comment> =>
    t.rest(
      "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
      { comment_id: commentId, body },
      commentSchema,
    );

  async function findCommentByMarker(issue: number, marker: string): Promise<Comment | null> {
    const line = markerLine(marker);
    // Only a comment that starts with the marker counts: someone quoting a
    // Locus comment ("> <!-- ... -->") must not become the sticky comment,
    // and neither must one someone else wrote with the marker.
    const comments = await listIssueComments(issue);
    return comments.find((c) => c.body.startsWith(line) && isLocus(ownLogins, c.author)) ?? null;
  }

  return {
    createComment,
    updateComment,
    findCommentByMarker,
    async upsertComment(issue, marker, body) {
      const text = `${markerLine(marker)}\n${body}`;
      const existing = await findCommentByMarker(issue, marker);
      if (!existing) return { action: "created", comment: await createComment(issue, text) };
      if (sameText(existing.body, text)) return { action: "unchanged", comment: existing };
      return { action: "updated", comment: await updateComment(existing.id, text) };
    },
    async addReaction(target, content) {
      const [route, params] =
        "issue" in target
          ? ["POST /repos/{owner}/{repo}/issues/{issue_number}/reactions", { issue_number: target.issue }]
          : "commentId" in target
            ? [
                "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
                { comment_id: target.commentId },
              ]
            : [
                "POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions",
                { comment_id: target.reviewCommentId },
              ];
      await t.rest(route, { ...params, content }, z.unknown());
    },
  };
}
