/**
 * A GraphQL query's rate-limit cost by GitHub's published formula: count the
 * requests needed to fill every connection, assuming each reaches its
 * `first`/`last` limit (a connection under another is fetched once per item
 * of its parent), divide by 100 and round; at least 1.
 * https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#calculating-a-rate-limit-score-before-running-the-call
 */
import {
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";

function intValue(node: ValueNode, variables: Record<string, unknown>): number | undefined {
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const value = variables[node.name.value];
    return typeof value === "number" ? value : undefined;
  }
  return undefined;
}

export function graphqlCost(
  document: DocumentNode,
  variables: Record<string, unknown> = {},
  operationName?: string,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  let requests = 0;
  const walk = (selections: SelectionSetNode | undefined, times: number, seen: ReadonlySet<string>): void => {
    for (const selection of selections?.selections ?? []) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, times, seen);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const name = selection.name.value;
        if (!seen.has(name)) walk(fragments.get(name)?.selectionSet, times, new Set([...seen, name]));
        continue;
      }
      const limit = (selection.arguments ?? [])
        .filter((argument) => argument.name.value === "first" || argument.name.value === "last")
        .map((argument) => intValue(argument.value, variables))
        .find((value) => value !== undefined);
      if (limit === undefined) {
        walk(selection.selectionSet, times, seen);
        continue;
      }
      requests += times;
      walk(selection.selectionSet, times * limit, seen);
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (operationName && definition.name?.value !== operationName) continue;
    walk(definition.selectionSet, 1, new Set());
  }
  return Math.max(1, Math.round(requests / 100));
}
