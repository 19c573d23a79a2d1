import { execute, GraphQLError, Kind, OperationTypeNode, parse, validate } from "graphql";
import type { DocumentNode, ExecutionResult } from "graphql";
import type { SimCore } from "./core.ts";
import { githubGraphqlSchema } from "./graphql-schema.ts";
import { issueUpdateRoot } from "./graphql-issue-updates.ts";
import { labelMutationRoot } from "./graphql-labels.ts";
import { commitOnBranchRoot } from "./graphql-commit-on-branch.ts";
import { mutationRoot } from "./graphql-mutations.ts";
import { graphqlCost } from "./graphql-cost.ts";
import { nodeRoot } from "./graphql-nodes.ts";
import { rootValue } from "./graphql-resolvers.ts";
import type { TokenRecord, User } from "./model.ts";
import { tokenCoversRepo } from "./workflow-token.ts";
import type { Bucket } from "./rate-limit.ts";

interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
}

function asRequest(body: unknown): GraphqlRequest | null {
  if (typeof body !== "object" || body === null) return null;
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== "string") return null;
  return {
    query,
    variables:
      typeof variables === "object" && variables !== null
        ? (variables as Record<string, unknown>)
        : undefined,
    operationName: typeof operationName === "string" ? operationName : undefined,
  };
}

function parseQuietly(query: string): DocumentNode | null {
  try {
    return parse(query);
  } catch {
    return null;
  }
}

// The operation name for the request log: the explicit one, else the first named operation in the document.
export function graphqlOperationName(body: unknown): string | null {
  const request = asRequest(body);
  if (!request) return null;
  if (request.operationName) return request.operationName;
  const document = parseQuietly(request.query);
  for (const definition of document?.definitions ?? []) {
    if (definition.kind === Kind.OPERATION_DEFINITION && definition.name) return definition.name.value;
  }
  return null;
}

// The top-level fields of the request's mutations, so the token's permissions can be checked first.
export function mutationFields(body: unknown): string[] {
  const request = asRequest(body);
  const document = request ? parseQuietly(request.query) : null;
  const fields: string[] = [];
  for (const definition of document?.definitions ?? []) {
    if (definition.kind !== Kind.OPERATION_DEFINITION || definition.operation !== OperationTypeNode.MUTATION)
      continue;
    if (request?.operationName && definition.name?.value !== request.operationName) continue;
    for (const selection of definition.selectionSet.selections) {
      if (selection.kind === Kind.FIELD) fields.push(selection.name.value);
    }
  }
  return fields;
}

// GitHub reports errors with a top-level `type` (NOT_FOUND, ...) rather than inside `extensions`.
function formatError(error: GraphQLError): Record<string, unknown> {
  const json: Record<string, unknown> = { message: error.message };
  if (typeof error.extensions.type === "string") json.type = error.extensions.type;
  if (error.path) json.path = error.path;
  if (error.locations) json.locations = error.locations;
  const extensions = Object.fromEntries(Object.entries(error.extensions).filter(([key]) => key !== "type"));
  if (Object.keys(extensions).length > 0) json.extensions = extensions;
  return json;
}

/** The request's rate-limit cost by GitHub's formula; 1 for a request that does not parse. */
export function requestCost(body: unknown): number {
  const request = asRequest(body);
  const document = request ? parseQuietly(request.query) : null;
  return document ? graphqlCost(document, request?.variables, request?.operationName) : 1;
}

/**
 * What the token can reach: a workflow job's `GITHUB_TOKEN` sees its own
 * repository only, so over GraphQL another repository, or a node in one, does
 * not resolve (NOT_FOUND), as its REST calls answer 404.
 * https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication
 */
function reachableCore(core: SimCore, token: TokenRecord | null): SimCore {
  if (token?.repository === undefined) return core;
  const repos = new Map(
    [...core.store.repos].filter(([, repo]) => tokenCoversRepo(token, repo.owner, repo.name)),
  );
  return { ...core, store: { ...core.store, repos } };
}

export async function executeGraphql(
  fullCore: SimCore,
  actor: { user: User; token: TokenRecord | null },
  bucket: Bucket,
  body: unknown,
): Promise<Record<string, unknown>> {
  const core = reachableCore(fullCore, actor.token);
  const viewer = actor.user;
  const cost = requestCost(body);
  const request = asRequest(body);
  if (!request) return { errors: [{ message: "A query attribute must be specified and must be a string." }] };
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    return { errors: [formatError(error instanceof GraphQLError ? error : new GraphQLError(String(error)))] };
  }
  const { schema } = githubGraphqlSchema();
  const validationErrors = validate(schema, document);
  if (validationErrors.length > 0) return { errors: validationErrors.map(formatError) };
  const result: ExecutionResult = await execute({
    schema,
    document,
    rootValue: {
      ...rootValue({ core, viewer, bucket, cost, token: actor.token }),
      ...nodeRoot({ core, viewer, bucket }),
      ...mutationRoot({ core, viewer, bucket }),
      ...issueUpdateRoot({ core, viewer, bucket }),
      ...labelMutationRoot({ core, viewer, bucket }),
      ...commitOnBranchRoot({ core, viewer, bucket }),
    },
    contextValue: { core, viewer, bucket },
    variableValues: request.variables,
    operationName: request.operationName,
  });
  const json: Record<string, unknown> = { data: result.data ?? null };
  if (result.errors) json.errors = result.errors.map(formatError);
  return json;
}
