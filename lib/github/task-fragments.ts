/**
 * What every read of issue, pull request and comment text shares (docs/architecture.md
 * "Prompt": only what existed at trigger time is used): the GraphQL fields
 * that bring a body's edit history, the fragments for an issue and its
 * comments, the workflow run's creation time and the day's spend, and their
 * parsers. The task read, the thread read and the iterate read all spread
 * these, so each body arrives with the history that recovers its trigger-time
 * text.
 */
import { z } from "zod";
import { MANAGED_LABEL, STATUS_PREFIX } from "../labels/schema.ts";
import type {
  EditHistory,
  IssueTimeline,
  RunAndSpend,
  SpendComment,
  TaskComment,
  TaskIssue,
  TimelineEvent,
} from "./task-types.ts";
import type { LabelIds } from "./label-ids.ts";
import type { Transport } from "./transport-types.ts";

/** The fields of GitHub's `UserContentEditable` a body's history needs: `first` revisions, newest first. */
export function editHistoryFields(first: number): string {
  return `createdAt lastEditedAt includesCreatedEdit
    userContentEdits(first: ${first}) { pageInfo { hasNextPage } nodes { editedAt diff deletedAt editor { __typename login } } }`;
}

/** Issue bodies are edited more than comments, so more of their history is read. */
const ISSUE_EDITS = 100;
const COMMENT_EDITS = 20;
/**
 * A thread's comments read with it; a full page is followed up 100 at a time
 * (`taskIssueReader`). GitHub charges each comment's edit history once per
 * comment asked for, times the threads in the read (a sprint's hundred issues),
 * so the first page is sized for a typical thread, not the largest.
 * https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#calculating-a-rate-limit-score-before-running-the-call
 */
export const THREAD_COMMENT_FIRST_PAGE = 10;

export const COMMENT_FRAGMENT = /* GraphQL */ `
  fragment TaskComment on IssueComment {
    id
    databaseId
    body
    url
    updatedAt
    authorAssociation
    author {
      __typename
      login
    }
    ${editHistoryFields(COMMENT_EDITS)}
  }
`;

const THREAD_FIELDS = `
    id
    number
    title
    body
    url
    author {
      __typename
      login
    }
    milestone {
      number
    }
    labels(first: 100) {
      nodes {
        id
        name
      }
    }
    ${editHistoryFields(ISSUE_EDITS)}
    comments(first: ${THREAD_COMMENT_FIRST_PAGE}) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...TaskComment
      }
    }
`;

/** How many of an issue's newest label, milestone and rename events are read. */
const TIMELINE_EVENTS = 100;

/**
 * The timeline events that say who triggered the work and what the title was
 * then: the newest first-class events, in time order. Comments come with the
 * thread's own comment page, so they are not asked for twice.
 */
const TIMELINE_FIELDS = `
    timelineItems(last: ${TIMELINE_EVENTS}, itemTypes: [LABELED_EVENT, MILESTONED_EVENT, RENAMED_TITLE_EVENT]) {
      pageInfo {
        hasPreviousPage
      }
      nodes {
        __typename
        ... on LabeledEvent {
          createdAt
          actor {
            __typename
            login
          }
          label {
            name
          }
        }
        ... on MilestonedEvent {
          createdAt
          actor {
            __typename
            login
          }
          milestoneTitle
        }
        ... on RenamedTitleEvent {
          createdAt
          actor {
            __typename
            login
          }
          previousTitle
          currentTitle
        }
      }
    }
`;

export const ISSUE_FRAGMENT = /* GraphQL */ `
  fragment TaskIssue on Issue {
    state
    ${THREAD_FIELDS}
    ${TIMELINE_FIELDS}
  }
`;

/** A pull request as a thread: its conversation like an issue's, and where its branches are. */
export const PULL_REQUEST_FRAGMENT = /* GraphQL */ `
  fragment TaskPullRequest on PullRequest {
    pullState: state
    merged
    isDraft
    headRefName
    headRefOid
    baseRefName
    ${THREAD_FIELDS}
  }
`;

/** A thread's comments, among which its status comment records what Locus spent on it today. */
const SPEND_COMMENTS = `
  comments(first: 100) {
    nodes {
      body
      viewerDidAuthor
      author {
        __typename
        login
      }
    }
  }
`;

/**
 * The default branch, the ids of Locus's labels (so a label set can be
 * written in one GraphQL request with the status comment), and the day's spend: the comments of every issue and
 * pull request updated since `$spendSince`, whatever its labels, since ask,
 * plan and review spend on threads Locus does not otherwise touch.
 */
export const RUN_AND_SPEND = /* GraphQL */ `
  defaultBranchRef {
    name
  }
  statusLabels: labels(first: 20, query: ${JSON.stringify(STATUS_PREFIX)}) {
    nodes {
      id
      name
    }
  }
  managedLabel: label(name: ${JSON.stringify(MANAGED_LABEL)}) {
    id
    name
  }
  spend: issues(
    first: 100
    filterBy: { since: $spendSince }
    orderBy: { field: UPDATED_AT, direction: DESC }
  ) @include(if: $withSpend) {
    nodes {
      ${SPEND_COMMENTS}
    }
  }
  spendPulls: pullRequests(first: 100, orderBy: { field: UPDATED_AT, direction: DESC })
    @include(if: $withSpend) {
    nodes {
      updatedAt
      ${SPEND_COMMENTS}
    }
  }
`;

/** The variable declarations `RUN_AND_SPEND` and `RUN` need. */
export const RUN_AND_SPEND_VARIABLES =
  "$runUrl: URI!, $withRun: Boolean!, $spendSince: DateTime!, $withSpend: Boolean!";

export const RUN = /* GraphQL */ `
  run: resource(url: $runUrl) @include(if: $withRun) {
    __typename
    ... on WorkflowRun {
      createdAt
    }
  }
`;

export const ISSUE_COMMENTS_QUERY = /* GraphQL */ `
  query IssueComments($owner: String!, $name: String!, $number: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      issueOrPullRequest(number: $number) {
        ... on Issue {
          comments(first: 100, after: $after) {
            ...CommentPage
          }
        }
        ... on PullRequest {
          comments(first: 100, after: $after) {
            ...CommentPage
          }
        }
      }
    }
  }
  fragment CommentPage on IssueCommentConnection {
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      ...TaskComment
    }
  }
  ${COMMENT_FRAGMENT}
`;

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

const commentPageSchema = z.object({
  pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  nodes: z.array(commentNodeSchema.nullable()),
});

const labelNodesSchema = z.object({
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

function timelineOf(read: z.infer<typeof timelineSchema>): IssueTimeline {
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

type ThreadNode = z.infer<typeof issueNodeSchema> | z.infer<typeof pullRequestNodeSchema>;

const spendCommentsShape = {
  comments: z.object({
    nodes: z.array(
      z
        .object({
          body: z.string(),
          viewerDidAuthor: z.boolean(),
          author: z.object({ __typename: z.string(), login: z.string() }).nullable(),
        })
        .nullable(),
    ),
  }),
};

const spendSchema = z.object({ nodes: z.array(z.object(spendCommentsShape).nullable()) }).nullish();
const spendPullsSchema = z
  .object({ nodes: z.array(z.object({ updatedAt: z.string(), ...spendCommentsShape }).nullable()) })
  .nullish();

export const runSchema = z.object({ __typename: z.string(), createdAt: z.string().optional() }).nullish();

/** The zod shape of `RUN_AND_SPEND` inside `repository`. */
export const repositoryCommon = {
  defaultBranchRef: z.object({ name: z.string() }).nullable(),
  statusLabels: labelNodesSchema.nullish(),
  managedLabel: z.object({ id: z.string(), name: z.string() }).nullish(),
  spend: spendSchema,
  spendPulls: spendPullsSchema,
};

export function namesOf(labels: { nodes: ({ name: string } | null)[] } | null): string[] {
  return (labels?.nodes ?? []).flatMap((l) => (l ? [l.name] : []));
}

export function present<T>(items: readonly (T | null)[]): T[] {
  return items.flatMap((item) => (item === null ? [] : [item]));
}

/** The variables `RUN_AND_SPEND` and `RUN` take, from the read's options. */
export function runAndSpendVariables(options: { runUrl?: string; spendSince?: string }) {
  return {
    runUrl: options.runUrl ?? "https://github.com/",
    withRun: options.runUrl !== undefined,
    spendSince: options.spendSince ?? new Date(0).toISOString(),
    withSpend: options.spendSince !== undefined,
  };
}

/** Remembers the label ids a read brought, for later batched label writes. */
export function rememberLabelIds(
  ids: LabelIds,
  labels: readonly ({ id?: string | undefined; name: string } | null | undefined)[],
): void {
  for (const label of labels) if (label?.id) ids.remember(label.name, label.id);
}

export function runAndSpendOf(
  t: Transport,
  data: {
    repository: {
      defaultBranchRef: { name: string } | null;
      statusLabels?: z.infer<typeof labelNodesSchema> | null | undefined;
      managedLabel?: { id: string; name: string } | null | undefined;
      spend?: z.infer<typeof spendSchema>;
      spendPulls?: z.infer<typeof spendPullsSchema>;
    };
    run?: z.infer<typeof runSchema>;
  },
  spendSince: string | undefined,
): RunAndSpend {
  const { spend, spendPulls, statusLabels, managedLabel } = data.repository;
  rememberLabelIds(t.labelIds, [...(statusLabels?.nodes ?? []), managedLabel]);
  // GitHub filters pull requests by update time only through search; the newest are kept here.
  const since = spendSince === undefined ? 0 : Date.parse(spendSince);
  const pulls = present(spendPulls?.nodes ?? []).filter((pull) => Date.parse(pull.updatedAt) >= since);
  const threads = [...present(spend?.nodes ?? []), ...pulls];
  return {
    defaultBranch: data.repository.defaultBranchRef?.name ?? "main",
    runCreatedAt: data.run?.__typename === "WorkflowRun" ? (data.run.createdAt ?? null) : null,
    spend:
      spend === undefined || spend === null
        ? null
        : threads.flatMap((thread) =>
            present(thread.comments.nodes).map((c): SpendComment => ({
              body: c.body,
              author: actorSchema.parse(c.author),
              viewerDidAuthor: c.viewerDidAuthor,
            })),
          ),
  };
}

const issueCommentsSchema = z.object({
  repository: z.object({
    issueOrPullRequest: z.object({ comments: commentPageSchema.optional() }).nullable(),
  }),
});

/** Turns thread nodes into `TaskIssue`s, paging comments past the first page. */
export function taskIssueReader(t: Transport): (node: ThreadNode) => Promise<TaskIssue> {
  const at = { owner: t.repo.owner, name: t.repo.repo };

  async function allComments(number: number, first: z.infer<typeof commentPageSchema>) {
    const comments = present(first.nodes);
    let page = first.pageInfo;
    while (page.hasNextPage && page.endCursor !== null) {
      const data = await t.graphql(
        "IssueComments",
        ISSUE_COMMENTS_QUERY,
        { ...at, number, after: page.endCursor },
        issueCommentsSchema,
      );
      const next = data.repository.issueOrPullRequest?.comments;
      if (!next) break;
      comments.push(...present(next.nodes));
      page = next.pageInfo;
    }
    return comments;
  }

  return async (node) => {
    rememberLabelIds(t.labelIds, node.labels?.nodes ?? []);
    return {
      ...(node.id === undefined ? {} : { nodeId: node.id }),
      number: node.number,
      title: node.title,
      body: node.body,
      state: ("pullState" in node ? node.pullState : node.state) === "OPEN" ? "open" : "closed",
      labels: namesOf(node.labels),
      milestone: node.milestone?.number ?? null,
      author: actorSchema.parse(node.author),
      isPullRequest: "headRefName" in node,
      url: node.url,
      comments: await allComments(node.number, node.comments),
      history: historyOf(node),
      ...("timelineItems" in node ? { timeline: timelineOf(node.timelineItems) } : {}),
    };
  };
}
