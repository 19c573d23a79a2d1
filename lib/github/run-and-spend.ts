/**
 * The part every task read adds to its query: the default branch, the ids of
 * Locus's labels, the workflow run's creation time and the day's spend (the
 * status comments that record it), with its variables and its parser. Apart
 * because it is one concept (what a run needs besides the thread) that three
 * reads share.
 */
import { z } from "zod";
import { MANAGED_LABEL, STATUS_PREFIX } from "../labels/schema.ts";
import type { LabelIds } from "./label-ids.ts";
import { actorSchema, labelNodesSchema, present } from "./task-node-schemas.ts";
import type { RunAndSpend, SpendComment } from "./task-types.ts";
import type { Transport } from "./transport-types.ts";

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
 * The repository's id and default branch, the ids of Locus's labels (so a
 * label set can be written in one GraphQL request with the status comment,
 * and a missing one created first, once), and the day's spend: the comments of every issue and
 * pull request updated since `$spendSince`, whatever its labels, since ask,
 * plan and review spend on threads Locus does not otherwise touch.
 */
export const RUN_AND_SPEND = /* GraphQL */ `
  id
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
  id: z.string().optional(),
  defaultBranchRef: z.object({ name: z.string() }).nullable(),
  statusLabels: labelNodesSchema.nullish(),
  managedLabel: z.object({ id: z.string(), name: z.string() }).nullish(),
  spend: spendSchema,
  spendPulls: spendPullsSchema,
};

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
      id?: string | undefined;
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
  if (data.repository.id) t.labelIds.rememberRepository(data.repository.id);
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
