/**
 * What `/locus status` shows, in one GraphQL read: the open milestones with
 * the counts a sprint's progress needs, the open issues in a Locus status with
 * their first comments (where the status comment sits), the open managed
 * issues (among them the sprints' tracking issues), the open managed pull
 * requests, the issue the command was posted on, and the API budget left.
 * Each list is one page of 100; what lies beyond is counted, never read.
 */
import { z } from "zod";
import { namesOf, present } from "./task-node-schemas.ts";
import type { RepositoryStatusRead } from "./repository-status-types.ts";
import type { SpendComment } from "./task-types.ts";
import type { Transport } from "./transport-types.ts";
import type { GitHubGateway } from "./types.ts";

/**
 * A status comment is written when Locus first queues an issue, so it is
 * among an issue's first comments; an issue discussed at length before that
 * shows without its attempts and PR rather than costing a read of every comment.
 */
const STATUS_COMMENT_WINDOW = 10;

const COMMENTS = `
  comments(first: ${STATUS_COMMENT_WINDOW}) {
    nodes {
      body
      viewerDidAuthor
      author {
        login
      }
    }
  }
`;

// Only totals are read below a milestone; GitHub still wants a page size on every connection.
export const REPOSITORY_STATUS_QUERY = /* GraphQL */ `
  query RepositoryStatus(
    $owner: String!
    $name: String!
    $number: Int!
    $statuses: [String!]!
    $active: [String!]!
    $completed: [String!]!
    $managed: [String!]!
  ) {
    repository(owner: $owner, name: $name) {
      milestones(first: 100, states: [OPEN], orderBy: { field: NUMBER, direction: ASC }) {
        totalCount
        nodes {
          number
          title
          url
          openIssues: issues(first: 1, states: [OPEN]) {
            totalCount
          }
          openCompleted: issues(first: 1, states: [OPEN], labels: $completed) {
            totalCount
          }
          closedCompleted: issues(first: 1, states: [CLOSED], labels: $completed) {
            totalCount
          }
          withStatus: issues(first: 1, labels: $statuses) {
            totalCount
          }
        }
      }
      tasks: issues(
        first: 100
        states: [OPEN]
        labels: $active
        orderBy: { field: CREATED_AT, direction: ASC }
      ) {
        totalCount
        nodes {
          number
          title
          url
          labels(first: 100) {
            nodes {
              name
            }
          }
          milestone {
            number
          }
          ${COMMENTS}
        }
      }
      managedOpen: issues(
        first: 100
        states: [OPEN]
        labels: $managed
        orderBy: { field: CREATED_AT, direction: DESC }
      ) {
        nodes {
          number
          title
          url
        }
      }
      pullRequests(
        first: 100
        states: [OPEN]
        labels: $managed
        orderBy: { field: CREATED_AT, direction: ASC }
      ) {
        totalCount
        nodes {
          number
          title
          url
          headRefName
        }
      }
      about: issueOrPullRequest(number: $number) {
        __typename
        ... on Issue {
          number
          labels(first: 100) {
            nodes {
              name
            }
          }
          ${COMMENTS}
        }
      }
    }
    rateLimit {
      limit
      remaining
      resetAt
    }
  }
`;

const total = z.object({ totalCount: z.number() });
const labelsSchema = z.object({ nodes: z.array(z.object({ name: z.string() }).nullable()) }).nullable();
const commentsSchema = z.object({
  nodes: z.array(
    z
      .object({
        body: z.string(),
        viewerDidAuthor: z.boolean(),
        author: z.object({ login: z.string() }).nullable(),
      })
      .nullable(),
  ),
});

const repositoryStatusSchema = z.object({
  repository: z.object({
    milestones: z.object({
      totalCount: z.number(),
      nodes: z.array(
        z
          .object({
            number: z.number(),
            title: z.string(),
            url: z.string(),
            openIssues: total,
            openCompleted: total,
            closedCompleted: total,
            withStatus: total,
          })
          .nullable(),
      ),
    }),
    tasks: z.object({
      totalCount: z.number(),
      nodes: z.array(
        z
          .object({
            number: z.number(),
            title: z.string(),
            url: z.string(),
            labels: labelsSchema,
            milestone: z.object({ number: z.number() }).nullable(),
            comments: commentsSchema,
          })
          .nullable(),
      ),
    }),
    managedOpen: z.object({
      nodes: z.array(z.object({ number: z.number(), title: z.string(), url: z.string() }).nullable()),
    }),
    pullRequests: z.object({
      totalCount: z.number(),
      nodes: z.array(
        z
          .object({ number: z.number(), title: z.string(), url: z.string(), headRefName: z.string() })
          .nullable(),
      ),
    }),
    about: z
      .union([
        z.object({
          __typename: z.literal("Issue"),
          number: z.number(),
          labels: labelsSchema,
          comments: commentsSchema,
        }),
        z.object({ __typename: z.literal("PullRequest") }),
      ])
      .nullable(),
  }),
  rateLimit: z.object({ limit: z.number(), remaining: z.number(), resetAt: z.string() }).nullable(),
});

function commentsOf(comments: z.infer<typeof commentsSchema>): SpendComment[] {
  return present(comments.nodes).map((c) => ({
    body: c.body,
    author: c.author?.login ?? "ghost",
    viewerDidAuthor: c.viewerDidAuthor,
  }));
}

export function repositoryStatusOps(t: Transport): Pick<GitHubGateway, "readRepositoryStatus"> {
  return {
    async readRepositoryStatus(options): Promise<RepositoryStatusRead> {
      const data = await t.graphql(
        "RepositoryStatus",
        REPOSITORY_STATUS_QUERY,
        {
          owner: t.repo.owner,
          name: t.repo.repo,
          number: options.about,
          statuses: options.statusLabels,
          active: options.activeLabels,
          completed: options.completedLabels,
          managed: [options.managedLabel],
        },
        repositoryStatusSchema,
      );
      const { milestones, tasks, managedOpen, pullRequests, about } = data.repository;
      const milestoneNodes = present(milestones.nodes);
      const taskNodes = present(tasks.nodes);
      const pullNodes = present(pullRequests.nodes);
      return {
        milestones: milestoneNodes.map((m) => ({
          number: m.number,
          title: m.title,
          url: m.url,
          tasks: m.openIssues.totalCount + m.closedCompleted.totalCount,
          completed: m.openCompleted.totalCount + m.closedCompleted.totalCount,
          withStatus: m.withStatus.totalCount,
        })),
        moreMilestones: milestones.totalCount - milestoneNodes.length,
        tasks: taskNodes.map((issue) => ({
          number: issue.number,
          title: issue.title,
          url: issue.url,
          labels: namesOf(issue.labels),
          milestone: issue.milestone?.number ?? null,
          comments: commentsOf(issue.comments),
        })),
        moreTasks: tasks.totalCount - taskNodes.length,
        managedOpen: present(managedOpen.nodes),
        pullRequests: pullNodes.map((pr) => ({
          number: pr.number,
          title: pr.title,
          url: pr.url,
          headRef: pr.headRefName,
        })),
        morePullRequests: pullRequests.totalCount - pullNodes.length,
        about:
          about?.__typename === "Issue"
            ? { number: about.number, labels: namesOf(about.labels), comments: commentsOf(about.comments) }
            : null,
        rateLimit: data.rateLimit,
      };
    },
  };
}
