/**
 * The writes of one moment of a task (a label set, the status comment, the
 * sprint dashboard, a new PR's label) sent as one GraphQL request: GitHub runs
 * a document's mutations one after another, so the request does what the REST
 * calls would, in order, for one call instead of several.
 *
 * Every write but a new comment replaces a whole state (a label set, a body),
 * so sending it again is harmless. A new comment is created once: when GitHub
 * fails on the request, the gateway looks for the comment before sending
 * again, and then sends only the other writes (create-once.ts).
 *
 * GraphQL names labels and subjects by global id. A label the repository
 * lacks is created first, once for the repository (label-creation.ts). When
 * an id is still unknown (a subject read over REST without one, a label that
 * could not be created) the writes go over REST one by one: the batch saves
 * calls, it never decides whether a write happens.
 */
import { z } from "zod";
import { findLandedComment, graphqlCommentSchema } from "./comments.ts";
import { isGitHubError } from "./errors.ts";
import { createMissingLabels } from "./label-creation.ts";
import { overRest, type RestWrites } from "./moment-writes-rest.ts";
import type { Transport } from "./transport-types.ts";
import type { Comment, GitHubGateway, MomentResult, MomentWrite } from "./types.ts";

type MomentOps = Pick<GitHubGateway, "writeMoment">;

// GitHub's timestamps are whole seconds, and its clock and ours differ a little (as create-once.ts).
const LANDED_SLACK_MS = 60_000;

/** The write that gives an issue (or pull request) this whole label set. */
export function labelWrite(
  subject: {
    readonly number: number;
    readonly nodeId?: string | undefined;
    readonly isPullRequest?: boolean;
  },
  labels: readonly string[],
): MomentWrite {
  return {
    kind: "labels",
    number: subject.number,
    nodeId: subject.nodeId,
    pullRequest: subject.isPullRequest ?? false,
    labels,
  };
}

/** A moment's write with the global ids GraphQL needs. */
type Batched =
  | { kind: "labels"; number: number; subject: string; labelIds: string[]; pullRequest: boolean }
  | { kind: "comment"; id: string; body: string }
  | { kind: "body"; subject: string; body: string }
  | { kind: "new-comment"; number: number; subject: string; body: string };

function batched(t: Transport, write: MomentWrite): Batched | null {
  switch (write.kind) {
    case "comment":
      return write.comment.nodeId ? { kind: "comment", id: write.comment.nodeId, body: write.body } : null;
    case "body":
      return write.nodeId ? { kind: "body", subject: write.nodeId, body: write.body } : null;
    case "new-comment":
      return write.nodeId
        ? { kind: "new-comment", number: write.number, subject: write.nodeId, body: write.body }
        : null;
    case "labels": {
      const labelIds = t.labelIds.idsOf(write.labels);
      if (!write.nodeId || !labelIds) return null;
      return {
        kind: "labels",
        number: write.number,
        subject: write.nodeId,
        labelIds,
        pullRequest: write.pullRequest,
      };
    }
  }
}

function batchable(t: Transport, writes: readonly MomentWrite[]): Batched[] | null {
  const batch: Batched[] = [];
  for (const write of writes) {
    const one = batched(t, write);
    if (!one) return null;
    batch.push(one);
  }
  return batch;
}

/** As `batchable`, after creating (once, label-creation.ts) the labels the writes set that GitHub lacks. */
async function batchableCreatingLabels(
  t: Transport,
  writes: readonly MomentWrite[],
): Promise<Batched[] | null> {
  const batch = batchable(t, writes);
  if (batch) return batch;
  const unknown = writes.flatMap((write) =>
    write.kind === "labels" && write.nodeId ? t.labelIds.unknown(write.labels) : [],
  );
  if (unknown.length === 0 || !(await createMissingLabels(t, unknown))) return null;
  return batchable(t, writes);
}

const LABEL_NAMES = "labels(first: 100) { nodes { id name } }";
const NEW_COMMENT_FIELDS =
  "id databaseId body url createdAt updatedAt authorAssociation author { __typename login }";

function field(write: Batched, index: number, variables: string[]): string {
  const at = `w${index}`;
  switch (write.kind) {
    case "comment":
      variables.push(`$comment${index}: ID!`, `$body${index}: String!`);
      return `${at}: updateIssueComment(input: { id: $comment${index}, body: $body${index} }) { issueComment { id } }`;
    case "body":
      variables.push(`$subject${index}: ID!`, `$body${index}: String!`);
      return `${at}: updateIssue(input: { id: $subject${index}, body: $body${index} }) { issue { id } }`;
    case "new-comment":
      variables.push(`$subject${index}: ID!`, `$body${index}: String!`);
      return `${at}: addComment(input: { subjectId: $subject${index}, body: $body${index} }) { commentEdge { node { ${NEW_COMMENT_FIELDS} } } }`;
    case "labels":
      variables.push(`$subject${index}: ID!`, `$labels${index}: [ID!]!`);
      return write.pullRequest
        ? `${at}: updatePullRequest(input: { pullRequestId: $subject${index}, labelIds: $labels${index} }) { pullRequest { ${LABEL_NAMES} } }`
        : `${at}: updateIssue(input: { id: $subject${index}, labelIds: $labels${index} }) { issue { ${LABEL_NAMES} } }`;
  }
}

function mutationText(batch: readonly Batched[]): string {
  const variables: string[] = [];
  const fields = batch.map((write, index) => field(write, index, variables));
  return `mutation WriteMoment(${variables.join(", ")}) {\n  ${fields.join("\n  ")}\n}\n`;
}

function variablesOf(batch: readonly Batched[]): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  batch.forEach((write, index) => {
    if (write.kind === "comment") {
      variables[`comment${index}`] = write.id;
      variables[`body${index}`] = write.body;
    } else if (write.kind === "labels") {
      variables[`subject${index}`] = write.subject;
      variables[`labels${index}`] = write.labelIds;
    } else {
      variables[`subject${index}`] = write.subject;
      variables[`body${index}`] = write.body;
    }
  });
  return variables;
}

/** The request for a moment's writes of these kinds; its text depends only on their kinds and order. */
export function writeMomentMutation(kinds: readonly (MomentWrite["kind"] | "pull-labels")[]): string {
  return mutationText(
    kinds.map((kind): Batched => {
      if (kind === "labels" || kind === "pull-labels")
        return { kind: "labels", number: 0, subject: "", labelIds: [], pullRequest: kind === "pull-labels" };
      if (kind === "comment") return { kind, id: "", body: "" };
      if (kind === "new-comment") return { kind, number: 0, subject: "", body: "" };
      return { kind, subject: "", body: "" };
    }),
  );
}

const labelsSchema = z.object({
  labels: z.object({ nodes: z.array(z.object({ id: z.string(), name: z.string() }).nullable()) }),
});

const payloadSchema = z.record(
  z.string(),
  z
    .object({
      issue: labelsSchema.partial().optional(),
      pullRequest: labelsSchema.optional(),
      commentEdge: z.object({ node: graphqlCommentSchema }).optional(),
    })
    .nullable(),
);

type Payload = z.infer<typeof payloadSchema>;

function resultOf(t: Transport, batch: readonly Batched[], data: Payload): MomentResult {
  const labels = new Map<number, string[]>();
  const comments = new Map<number, Comment>();
  batch.forEach((write, index) => {
    const payload = data[`w${index}`];
    if (write.kind === "new-comment" && payload?.commentEdge)
      comments.set(write.number, payload.commentEdge.node);
    if (write.kind !== "labels") return;
    const nodes = (payload?.issue?.labels ?? payload?.pullRequest?.labels)?.nodes ?? [];
    const names: string[] = [];
    for (const node of nodes) {
      if (!node) continue;
      t.labelIds.remember(node.name, node.id);
      names.push(node.name);
    }
    labels.set(write.number, names);
  });
  return { labels, comments };
}

/** GitHub answered the request but refused one of its mutations (it still ran the others). */
function refusedInPart(error: unknown): boolean {
  return isGitHubError(error) && error.status === 200;
}

export function momentOps(t: Transport, rest: RestWrites): MomentOps {
  const send = async (batch: readonly Batched[]): Promise<MomentResult> =>
    resultOf(
      t,
      batch,
      await t.graphql("WriteMoment", mutationText(batch), variablesOf(batch), payloadSchema),
    );

  return {
    async writeMoment(writes) {
      const batch = writes.length > 1 ? await batchableCreatingLabels(t, writes) : null;
      if (!batch) return overRest(rest, writes);
      const since = new Date(Date.now() - LANDED_SLACK_MS);
      try {
        return await sendBatch(batch);
      } catch (error) {
        // GitHub runs the fields after a refused one, so some writes landed: each is done again over
        // REST (a whole state, harmless to repeat), the comment only if it is not there yet.
        if (!refusedInPart(error)) throw error;
        return overRest(rest, writes, (write) => findLandedComment(t, write.number, write.body, since));
      }
    },
  };

  function sendBatch(batch: readonly Batched[]): Promise<MomentResult> {
    const created = batch.find((write) => write.kind === "new-comment");
    if (!created) return send(batch);
    return t.create({
      what: `comment on #${created.number} with ${batch.length - 1} other write(s)`,
      send: async (once) =>
        resultOf(
          t,
          batch,
          await once.graphql("WriteMoment", mutationText(batch), variablesOf(batch), payloadSchema),
        ),
      // The comment is there: the other writes (each a whole state) are sent again to be sure.
      async landed(since) {
        const comment = await findLandedComment(t, created.number, created.body, since);
        if (!comment) return null;
        const others = batch.filter((write) => write !== created);
        const result = others.length > 0 ? await send(others) : { labels: new Map(), comments: new Map() };
        return { labels: result.labels, comments: new Map([[created.number, comment]]) };
      },
    });
  }
}
