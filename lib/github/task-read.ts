/**
 * One GraphQL read per coding task (issue mode) or per sprint: the issue with
 * its labels, comments and edit histories, the default branch, when GitHub
 * created the workflow run, and (when a daily cost cap is set) the comments of
 * the issues Locus touched since the day began. Only an issue with more than
 * 100 comments, or a sprint of more than 100 issues, costs another page.
 */
import { z } from "zod";
import type { Transport } from "./transport.ts";
import type {
  EditHistory,
  RunAndSpend,
  SprintRead,
  SpendComment,
  TaskComment,
  TaskIssue,
  TaskRead,
  TaskReadOptions,
} from "./task-types.ts";
import type { GitHubGateway } from "./types.ts";

const COMMENT_FIELDS = /* GraphQL */ `
  fragment TaskComment on IssueComment {
    databaseId
    body
    url
    createdAt
    updatedAt
    lastEditedAt
    includesCreatedEdit
    authorAssociation
    author {
      __typename
      login
    }
    userContentEdits(first: 20) {
      pageInfo {
        hasNextPage
      }
      nodes {
        editedAt
        diff
        deletedAt
      }
    }
  }
`;

const ISSUE_FIELDS = /* GraphQL */ `
  fragment TaskIssue on Issue {
    number
    title
    body
    state
    url
    createdAt
    lastEditedAt
    includesCreatedEdit
    author {
      __typename
      login
    }
    milestone {
      number
    }
    labels(first: 100) {
      nodes {
        name
      }
    }
    userContentEdits(first: 100) {
      pageInfo {
        hasNextPage
      }
      nodes {
        editedAt
        diff
        deletedAt
      }
    }
    comments(first: 100) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...TaskComment
      }
    }
  }
`;

const RUN_AND_SPEND = /* GraphQL */ `
  defaultBranchRef {
    name
  }
  spend: issues(
    first: 100
    filterBy: { since: $spendSince, labels: $managed }
    orderBy: { field: UPDATED_AT, direction: DESC }
  ) @include(if: $withSpend) {
    nodes {
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
    }
  }
`;

const RUN = /* GraphQL */ `
  run: resource(url: $runUrl) @include(if: $withRun) {
    __typename
    ... on WorkflowRun {
      createdAt
    }
  }
`;

export const TASK_ISSUE_QUERY = /* GraphQL */ `
  query TaskIssue(
    $owner: String!
    $name: String!
    $number: Int!
    $runUrl: URI!
    $withRun: Boolean!
    $spendSince: DateTime!
    $withSpend: Boolean!
    $managed: [String!]!
  ) {
    repository(owner: $owner, name: $name) {
      ${RUN_AND_SPEND}
      issueOrPullRequest(number: $number) {
        __typename
        ...TaskIssue
      }
    }
    ${RUN}
  }
  ${ISSUE_FIELDS}
  ${COMMENT_FIELDS}
`;

export const SPRINT_TASKS_QUERY = /* GraphQL */ `
  query SprintTasks(
    $owner: String!
    $name: String!
    $milestone: Int!
    $after: String
    $runUrl: URI!
    $withRun: Boolean!
    $spendSince: DateTime!
    $withSpend: Boolean!
    $managed: [String!]!
  ) {
    repository(owner: $owner, name: $name) {
      ${RUN_AND_SPEND}
      managedOpen: issues(
        first: 100
        states: [OPEN]
        labels: $managed
        orderBy: { field: CREATED_AT, direction: DESC }
      ) {
        nodes {
          number
          title
          labels(first: 100) {
            nodes {
              name
            }
          }
        }
      }
      milestone(number: $milestone) {
        number
        title
        description
        state
        dueOn
        url
        issues(first: 100, after: $after, orderBy: { field: CREATED_AT, direction: ASC }) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...TaskIssue
          }
        }
      }
    }
    ${RUN}
  }
  ${ISSUE_FIELDS}
  ${COMMENT_FIELDS}
`;

export const ISSUE_COMMENTS_QUERY = /* GraphQL */ `
  query IssueComments($owner: String!, $name: String!, $number: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      issue(number: $number) {
        comments(first: 100, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...TaskComment
          }
        }
      }
    }
  }
  ${COMMENT_FIELDS}
`;

// GraphQL names a bot without REST's "[bot]" suffix; Locus compares REST logins.
const actorSchema = z
  .object({ __typename: z.string(), login: z.string() })
  .nullable()
  .transform((a) => (a === null ? "ghost" : a.__typename === "Bot" ? `${a.login}[bot]` : a.login));

const editsSchema = z.object({
  pageInfo: z.object({ hasNextPage: z.boolean() }),
  nodes: z.array(
    z
      .object({ editedAt: z.string(), diff: z.string().nullable(), deletedAt: z.string().nullable() })
      .nullable(),
  ),
});

const editable = {
  createdAt: z.string(),
  lastEditedAt: z.string().nullable(),
  includesCreatedEdit: z.boolean(),
  userContentEdits: editsSchema.nullable(),
};

function historyOf(e: {
  createdAt: string;
  lastEditedAt: string | null;
  includesCreatedEdit: boolean;
  userContentEdits: z.infer<typeof editsSchema> | null;
}): EditHistory {
  const nodes = (e.userContentEdits?.nodes ?? []).flatMap((n) => (n ? [n] : []));
  const revisions = nodes
    .map((n) => ({ editedAt: n.editedAt, body: n.deletedAt === null ? n.diff : null }))
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

const commentNodeSchema = z
  .object({
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

const issueNodeSchema = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string(),
  state: z.enum(["OPEN", "CLOSED"]),
  url: z.string(),
  author: z.object({ __typename: z.string(), login: z.string() }).nullable(),
  milestone: z.object({ number: z.number() }).nullable(),
  labels: z.object({ nodes: z.array(z.object({ name: z.string() }).nullable()) }).nullable(),
  comments: commentPageSchema,
  ...editable,
});

type IssueNode = z.infer<typeof issueNodeSchema>;

const spendSchema = z
  .object({
    nodes: z.array(
      z
        .object({
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
        })
        .nullable(),
    ),
  })
  .nullish();

const runSchema = z.object({ __typename: z.string(), createdAt: z.string().optional() }).nullish();

const repositoryCommon = {
  defaultBranchRef: z.object({ name: z.string() }).nullable(),
  spend: spendSchema,
};

const taskIssueSchema = z.object({
  repository: z.object({
    ...repositoryCommon,
    issueOrPullRequest: z
      .union([
        issueNodeSchema.extend({ __typename: z.literal("Issue") }),
        z.object({ __typename: z.literal("PullRequest") }),
      ])
      .nullable(),
  }),
  run: runSchema,
});

const sprintTasksSchema = z.object({
  repository: z.object({
    ...repositoryCommon,
    managedOpen: z.object({
      nodes: z.array(
        z
          .object({
            number: z.number(),
            title: z.string(),
            labels: z.object({ nodes: z.array(z.object({ name: z.string() }).nullable()) }).nullable(),
          })
          .nullable(),
      ),
    }),
    milestone: z
      .object({
        number: z.number(),
        title: z.string(),
        description: z.string().nullable(),
        state: z.enum(["OPEN", "CLOSED"]),
        dueOn: z.string().nullable(),
        url: z.string(),
        issues: z.object({
          pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
          nodes: z.array(issueNodeSchema.nullable()),
        }),
      })
      .nullable(),
  }),
  run: runSchema,
});

const issueCommentsSchema = z.object({
  repository: z.object({ issue: z.object({ comments: commentPageSchema }).nullable() }),
});

function namesOf(labels: { nodes: ({ name: string } | null)[] } | null): string[] {
  return (labels?.nodes ?? []).flatMap((l) => (l ? [l.name] : []));
}

function present<T>(items: readonly (T | null)[]): T[] {
  return items.flatMap((item) => (item === null ? [] : [item]));
}

type TaskReadOps = Pick<GitHubGateway, "readTask" | "readSprint">;

/**
 * GitHub answers a number that names nothing with a NOT_FOUND error beside a
 * null, and the rest of the answer (the default branch, the run) still holds:
 * that answer, or undefined for any other error.
 */
function dataBesideNotFound(error: unknown): unknown {
  const cause = (error as { cause?: { errors?: unknown; data?: unknown } }).cause;
  const errors = cause?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const onlyNotFound = errors.every((e: { type?: unknown }) => e.type === "NOT_FOUND");
  return onlyNotFound ? cause?.data : undefined;
}

export function taskReadOps(t: Transport): TaskReadOps {
  const at = { owner: t.repo.owner, name: t.repo.repo };

  function common(options: TaskReadOptions) {
    return {
      ...at,
      runUrl: options.runUrl ?? "https://github.com/",
      withRun: options.runUrl !== undefined,
      spendSince: options.spendSince ?? new Date(0).toISOString(),
      withSpend: options.spendSince !== undefined,
      managed: [options.managedLabel],
    };
  }

  function runAndSpend(data: {
    repository: { defaultBranchRef: { name: string } | null; spend?: z.infer<typeof spendSchema> };
    run?: z.infer<typeof runSchema>;
  }): RunAndSpend {
    const spend = data.repository.spend;
    return {
      defaultBranch: data.repository.defaultBranchRef?.name ?? "main",
      runCreatedAt: data.run?.__typename === "WorkflowRun" ? (data.run.createdAt ?? null) : null,
      spend:
        spend === undefined || spend === null
          ? null
          : present(spend.nodes).flatMap((issue) =>
              present(issue.comments.nodes).map((c): SpendComment => ({
                body: c.body,
                author: actorSchema.parse(c.author),
                viewerDidAuthor: c.viewerDidAuthor,
              })),
            ),
    };
  }

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
      const next = data.repository.issue?.comments;
      if (!next) break;
      comments.push(...present(next.nodes));
      page = next.pageInfo;
    }
    return comments;
  }

  async function taskIssue(node: IssueNode): Promise<TaskIssue> {
    return {
      number: node.number,
      title: node.title,
      body: node.body,
      state: node.state === "OPEN" ? "open" : "closed",
      labels: namesOf(node.labels),
      milestone: node.milestone?.number ?? null,
      author: actorSchema.parse(node.author),
      isPullRequest: false,
      url: node.url,
      comments: await allComments(node.number, node.comments),
      history: historyOf(node),
    };
  }

  return {
    async readTask(number, options): Promise<TaskRead> {
      const data = await t
        .graphql("TaskIssue", TASK_ISSUE_QUERY, { ...common(options), number }, taskIssueSchema)
        .catch((error: unknown) => {
          const partial = taskIssueSchema.safeParse(dataBesideNotFound(error));
          if (partial.success) return partial.data;
          throw error;
        });
      const found = data.repository.issueOrPullRequest;
      return {
        ...runAndSpend(data),
        issue: found?.__typename === "Issue" ? await taskIssue(found) : null,
        isPullRequest: found?.__typename === "PullRequest",
      };
    },
    async readSprint(milestone, options): Promise<SprintRead> {
      const issues: TaskIssue[] = [];
      let after: string | null = null;
      let first: Omit<SprintRead, "issues"> | undefined;
      for (;;) {
        const data: z.infer<typeof sprintTasksSchema> = await t.graphql(
          "SprintTasks",
          SPRINT_TASKS_QUERY,
          // Later pages need only the milestone's issues.
          { ...common(after === null ? options : { managedLabel: options.managedLabel }), milestone, after },
          sprintTasksSchema,
        );
        const found = data.repository.milestone;
        first ??= {
          ...runAndSpend(data),
          milestone: found && {
            number: found.number,
            title: found.title,
            description: found.description ?? "",
            state: found.state === "OPEN" ? "open" : "closed",
            dueOn: found.dueOn,
            url: found.url,
          },
          managedOpen: present(data.repository.managedOpen.nodes).map((n) => ({
            number: n.number,
            title: n.title,
            labels: namesOf(n.labels),
          })),
        };
        if (found) for (const node of present(found.issues.nodes)) issues.push(await taskIssue(node));
        if (!found?.issues.pageInfo.hasNextPage || found.issues.pageInfo.endCursor === null) {
          return { ...first, issues };
        }
        after = found.issues.pageInfo.endCursor;
      }
    },
  };
}
