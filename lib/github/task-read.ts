/**
 * One GraphQL read per coding task (issue mode), per sprint, or per thread a
 * question, plan or review is about: the issue or pull request with its
 * labels, comments and edit histories, the default branch, when GitHub
 * created the workflow run, and (when a daily cost cap is set) the comments of
 * the issues and pull requests updated since the day began. Only a thread
 * with more than 100 comments, or a sprint of more than 100 issues, costs
 * another page.
 */
import { z } from "zod";
import type { Transport } from "./transport-types.ts";
import { COMMENT_FRAGMENT, ISSUE_FRAGMENT, PULL_REQUEST_FRAGMENT } from "./task-fragments.ts";
import { issueNodeSchema, namesOf, present, pullRequestNodeSchema } from "./task-node-schemas.ts";
import {
  repositoryCommon,
  RUN,
  RUN_AND_SPEND,
  RUN_AND_SPEND_VARIABLES,
  runAndSpendOf,
  runAndSpendVariables,
  runSchema,
} from "./run-and-spend.ts";
import { taskIssueReader } from "./task-issue-reader.ts";
import type { SprintRead, TaskIssue, TaskRead, ThreadRead } from "./task-types.ts";
import type { GitHubGateway, PullRequest } from "./types.ts";

export const TASK_ISSUE_QUERY = /* GraphQL */ `
  query TaskIssue($owner: String!, $name: String!, $number: Int!, ${RUN_AND_SPEND_VARIABLES}) {
    repository(owner: $owner, name: $name) {
      ${RUN_AND_SPEND}
      issueOrPullRequest(number: $number) {
        __typename
        ...TaskIssue
      }
    }
    ${RUN}
  }
  ${ISSUE_FRAGMENT}
  ${COMMENT_FRAGMENT}
`;

/** An issue or a pull request as the thread a question, a plan or a review is about. */
export const TASK_THREAD_QUERY = /* GraphQL */ `
  query TaskThread($owner: String!, $name: String!, $number: Int!, ${RUN_AND_SPEND_VARIABLES}) {
    repository(owner: $owner, name: $name) {
      ${RUN_AND_SPEND}
      issueOrPullRequest(number: $number) {
        __typename
        ...TaskIssue
        ...TaskPullRequest
      }
    }
    ${RUN}
  }
  ${ISSUE_FRAGMENT}
  ${PULL_REQUEST_FRAGMENT}
  ${COMMENT_FRAGMENT}
`;

export const SPRINT_TASKS_QUERY = /* GraphQL */ `
  query SprintTasks(
    $owner: String!
    $name: String!
    $milestone: Int!
    $after: String
    $managed: [String!]!
    ${RUN_AND_SPEND_VARIABLES}
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
          id
          number
          title
          author {
            __typename
            login
          }
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
  ${ISSUE_FRAGMENT}
  ${COMMENT_FRAGMENT}
`;

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

const taskThreadSchema = z.object({
  repository: z.object({
    ...repositoryCommon,
    issueOrPullRequest: z
      .discriminatedUnion("__typename", [
        issueNodeSchema.extend({ __typename: z.literal("Issue") }),
        pullRequestNodeSchema.extend({ __typename: z.literal("PullRequest") }),
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
            id: z.string().optional(),
            number: z.number(),
            title: z.string(),
            author: z.object({ __typename: z.string(), login: z.string() }).nullable(),
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

type TaskReadOps = Pick<GitHubGateway, "readTask" | "readThread" | "readSprint">;

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
  const taskIssue = taskIssueReader(t);

  /** Runs a query whose one number may name nothing: the answer beside GitHub's NOT_FOUND is kept. */
  function readNumbered<S extends z.ZodType>(
    name: string,
    query: string,
    variables: Record<string, unknown>,
    schema: S,
  ) {
    return t.graphql(name, query, variables, schema).catch((error: unknown) => {
      const partial = schema.safeParse(dataBesideNotFound(error));
      if (partial.success) return partial.data;
      throw error;
    });
  }

  return {
    async readTask(number, options): Promise<TaskRead> {
      const variables = { ...at, ...runAndSpendVariables(options), number };
      const data = await readNumbered("TaskIssue", TASK_ISSUE_QUERY, variables, taskIssueSchema);
      const found = data.repository.issueOrPullRequest;
      return {
        ...runAndSpendOf(t, data, options.spendSince),
        issue: found?.__typename === "Issue" ? await taskIssue(found) : null,
        isPullRequest: found?.__typename === "PullRequest",
      };
    },
    async readThread(number, options): Promise<ThreadRead> {
      const variables = { ...at, ...runAndSpendVariables(options), number };
      const data = await readNumbered("TaskThread", TASK_THREAD_QUERY, variables, taskThreadSchema);
      const found = data.repository.issueOrPullRequest;
      if (!found) return { ...runAndSpendOf(t, data, options.spendSince), thread: null };
      const thread = await taskIssue(found);
      const pullRequest: PullRequest | null =
        found.__typename === "PullRequest"
          ? {
              number: found.number,
              title: found.title,
              body: found.body,
              state: thread.state,
              merged: found.merged,
              draft: found.isDraft,
              head: { ref: found.headRefName, sha: found.headRefOid },
              base: { ref: found.baseRefName },
              author: thread.author,
              url: found.url,
            }
          : null;
      return { ...runAndSpendOf(t, data, options.spendSince), thread: { ...thread, pullRequest } };
    },
    async readSprint(milestone, options): Promise<SprintRead> {
      const issues: TaskIssue[] = [];
      let after: string | null = null;
      let first: Omit<SprintRead, "issues"> | undefined;
      for (;;) {
        // Later pages need only the milestone's issues.
        const page = after === null ? options : { managedLabel: options.managedLabel };
        const data: z.infer<typeof sprintTasksSchema> = await t.graphql(
          "SprintTasks",
          SPRINT_TASKS_QUERY,
          { ...at, ...runAndSpendVariables(page), managed: [options.managedLabel], milestone, after },
          sprintTasksSchema,
        );
        const found = data.repository.milestone;
        first ??= {
          ...runAndSpendOf(t, data, options.spendSince),
          milestone: found && {
            number: found.number,
            title: found.title,
            description: found.description ?? "",
            state: found.state === "OPEN" ? "open" : "closed",
            dueOn: found.dueOn,
            url: found.url,
          },
          managedOpen: present(data.repository.managedOpen.nodes).map((n) => ({
            ...(n.id === undefined ? {} : { nodeId: n.id }),
            number: n.number,
            title: n.title,
            // GraphQL names a bot without the "[bot]" REST gives it; a deleted account is null.
            author:
              n.author === null
                ? "ghost"
                : `${n.author.login}${n.author.__typename === "Bot" ? "[bot]" : ""}`,
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
