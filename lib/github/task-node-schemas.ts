/**
 * The zod parsers of what `task-fragments.ts` asks for: an issue, a pull
 * request and their comments, each with its edit history and (for issues) the
 * timeline events that tell who labelled it. Kept apart from the query text so
 * a reader of either sees one language at a time.
 */
import { z } from "zod";
import type { EditHistory, IssueTimeline, TaskComment, TimelineEvent } from "./task-types.ts";

// GraphQL names a bot without REST's "[bot]" suffix; Locus compares REST logins.
export const actorSchema = z
  .object({ __typename: z.string(), login: z.string() })
  .nullable()
  .transform((a) => (a === null ? "ghost" : a.__typename === "Bot" ? `${a.login}[bot]` : a.login));

const editsSchema = z.object({
  pageInfo: z.object({ hasNextPage: z.boolean() }),
  nodes: z.array(
    z
      .object({
        editedAt: z.string(),
        diff: z.string().nullable(),
        deletedAt: z.string().nullable(),
        // Absent from reads that do not ask who edited.
        editor: actorSchema.optional(),
      })
      .nullable(),
  ),
});

/** The zod shape of `editHistoryFields`. */
export const editable = {
  createdAt: z.string(),
  lastEditedAt: z.string().nullable(),
  includesCreatedEdit: z.boolean(),
  userContentEdits: editsSchema.nullable(),
};

export function historyOf(e: {
  createdAt: string;
  lastEditedAt: string | null;
  includesCreatedEdit: boolean;
  userContentEdits: z.infer<typeof editsSchema> | null;
}): EditHistory {
  const nodes = (e.userContentEdits?.nodes ?? []).flatMap((n) => (n ? [n] : []));
  const revisions = nodes
    .map((n) => ({
      editedAt: n.editedAt,
      body: n.deletedAt === null ? n.diff : null,
      ...(n.editor === undefined ? {} : { editor: n.editor }),
    }))
    .sort((a, b) => Date.parse(a.editedAt) - Date.parse(b.editedAt));
  const truncated = e.userContentEdits?.pageInfo.hasNextPage ?? false;
  return {
    createdAt: e.createdAt,
    lastEditedAt: e.lastEditedAt,
    revisions,
    includesCreated: e.includesCreatedEdit && !truncated,
    truncated,
  };
}

export const commentNodeSchema = z
  .object({
    id: z.string().optional(),
    databaseId: z.number().nullable(),
    body: z.string(),
    url: z.string(),
    updatedAt: z.string(),
    authorAssociation: z.string(),
    author: z.object({ __typename: z.string(), login: z.string() }).nullable(),
    ...editable,
  })
  .transform((c): TaskComment => ({
    id: c.databaseId ?? 0,
    ...(c.id === undefined ? {} : { nodeId: c.id }),
    body: c.body,
    author: actorSchema.parse(c.author),
    authorType: c.author?.__typename === "Bot" ? "Bot" : "User",
    authorAssociation: c.authorAssociation,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    url: c.url,
    history: historyOf(c),
  }));

export const commentPageSchema = z.object({
  pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  nodes: z.array(commentNodeSchema.nullable()),
});

export const labelNodesSchema = z.object({
  nodes: z.array(z.object({ id: z.string().optional(), name: z.string() }).nullable()),
});

const threadShape = {
  id: z.string().optional(),
  number: z.number(),
  title: z.string(),
  body: z.string(),
  url: z.string(),
  author: z.object({ __typename: z.string(), login: z.string() }).nullable(),
  milestone: z.object({ number: z.number() }).nullable(),
  labels: labelNodesSchema.nullable(),
  comments: commentPageSchema,
  ...editable,
};

const eventActor = { createdAt: z.string(), actor: actorSchema };

// Other item types cannot come back (the query names three), but a node GitHub could not load is null.
const timelineSchema = z.object({
  pageInfo: z.object({ hasPreviousPage: z.boolean() }),
  nodes: z.array(
    z
      .discriminatedUnion("__typename", [
        z.object({
          __typename: z.literal("LabeledEvent"),
          ...eventActor,
          label: z.object({ name: z.string() }),
        }),
        z.object({ __typename: z.literal("MilestonedEvent"), ...eventActor, milestoneTitle: z.string() }),
        z.object({
          __typename: z.literal("RenamedTitleEvent"),
          ...eventActor,
          previousTitle: z.string(),
          currentTitle: z.string(),
        }),
      ])
      .nullable(),
  ),
});

export function timelineOf(read: z.infer<typeof timelineSchema>): IssueTimeline {
  const events = present(read.nodes).map((node): TimelineEvent => {
    const at = { actor: node.actor, createdAt: node.createdAt };
    switch (node.__typename) {
      case "LabeledEvent":
        return { ...at, kind: "labeled", label: node.label.name };
      case "MilestonedEvent":
        return { ...at, kind: "milestoned", milestoneTitle: node.milestoneTitle };
      case "RenamedTitleEvent":
        return { ...at, kind: "renamed", previousTitle: node.previousTitle, currentTitle: node.currentTitle };
    }
  });
  events.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  return { events, truncated: read.pageInfo.hasPreviousPage };
}

export const issueNodeSchema = z.object({
  ...threadShape,
  state: z.enum(["OPEN", "CLOSED"]),
  timelineItems: timelineSchema,
});

// Aliased: an issue's and a pull request's `state` have different types, so one query cannot ask for both by that name.
export const pullRequestNodeSchema = z.object({
  ...threadShape,
  pullState: z.enum(["OPEN", "CLOSED", "MERGED"]),
  merged: z.boolean(),
  isDraft: z.boolean(),
  headRefName: z.string(),
  headRefOid: z.string(),
  baseRefName: z.string(),
});

export type ThreadNode = z.infer<typeof issueNodeSchema> | z.infer<typeof pullRequestNodeSchema>;

export function namesOf(labels: { nodes: ({ name: string } | null)[] } | null): string[] {
  return (labels?.nodes ?? []).flatMap((l) => (l ? [l.name] : []));
}

export function present<T>(items: readonly (T | null)[]): T[] {
  return items.flatMap((item) => (item === null ? [] : [item]));
}
