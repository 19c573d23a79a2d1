import type { GraphqlContext } from "./graphql-resolvers.ts";
import { reviewThreadNode, rootValue } from "./graphql-resolvers.ts";
import { findSubject, findThread } from "./graphql-mutations.ts";

// `node(id:)` and `nodes(ids:)` for the global ids Locus looks up by id: review threads, pull
// requests and issues. An id that names nothing (or nothing the viewer may see) is null beside a
// NOT_FOUND error, as on GitHub.

type Args = Record<string, unknown>;

type RepositoryNode = { issueOrPullRequest: (args: Args) => Record<string, unknown> };

function resolveNode(context: GraphqlContext, id: string): Record<string, unknown> {
  if (id.startsWith("PRRT_")) {
    const { repo, root, pull } = findThread(context.core, context.viewer, id);
    return { __typename: "PullRequestReviewThread", ...reviewThreadNode(context.core, repo, pull, root) };
  }
  const { repo, issue } = findSubject(context.core, context.viewer, id);
  const repository = rootValue(context).repository as (args: Args) => RepositoryNode;
  return repository({ owner: repo.owner, name: repo.name }).issueOrPullRequest({ number: issue.number });
}

// graphql-js nulls a list item that is an Error and reports it, so one bad id spoils only its entry.
function resolveOrError(context: GraphqlContext, id: unknown): Record<string, unknown> | Error {
  try {
    return resolveNode(context, String(id));
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

export function nodeRoot(context: GraphqlContext): Record<string, unknown> {
  return {
    node: (args: Args) => resolveNode(context, String(args.id)),
    nodes: (args: Args) => (Array.isArray(args.ids) ? args.ids : []).map((id) => resolveOrError(context, id)),
  };
}
