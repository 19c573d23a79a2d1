/**
 * Locus's labels created where a read showed them missing, all in one GraphQL
 * request: the first task in a repository that lacks them (installed without
 * the app, or the labels deleted since) creates every one its run can set,
 * and the ids the answer brings serve every later write of the run; later
 * runs find the labels in their read. So a repository pays for its labels
 * once, never per task, and a moment's writes still go out as one request
 * (moment-writes.ts) instead of one REST call each.
 *
 * A request can create a label but not use the new id in the same document
 * (GraphQL has no way to pass one field's answer to another's input), so the
 * creation is its own request, sent once before the moment that needs it.
 */
import { z } from "zod";
import { LOCUS_LABELS, MANAGED_LABEL, STATUSES, statusLabel } from "../labels/schema.ts";
import type { Transport } from "./transport-types.ts";

/** The labels a task's writes set: every status and the managed label. */
const TASK_LABELS: readonly string[] = [...STATUSES.map(statusLabel), MANAGED_LABEL];

// GitHub's own colour for a label created without one (a REST label write naming a new label).
const DEFAULT_COLOR = "ededed";

/** The request creating `count` labels, aliased `l0`, `l1`, …; its text depends only on the count. */
export function createLabelsMutation(count: number): string {
  const variables = ["$repository: ID!"];
  const fields: string[] = [];
  for (let i = 0; i < count; i++) {
    variables.push(`$name${i}: String!`, `$color${i}: String!`, `$description${i}: String`);
    fields.push(
      `l${i}: createLabel(input: { repositoryId: $repository, name: $name${i}, color: $color${i}, description: $description${i} }) { label { id name } }`,
    );
  }
  return `mutation CreateLabels(${variables.join(", ")}) {\n  ${fields.join("\n  ")}\n}\n`;
}

const payloadSchema = z.record(
  z.string(),
  z.object({ label: z.object({ id: z.string(), name: z.string() }).nullable() }).nullable(),
);

/**
 * Creates `names` and every other label of Locus's a task sets that this run has not seen, when a
 * read brought the repository's id (and with it Locus's labels as they stand). Answers whether all
 * of `names` now have an id; false leaves the writes to REST, which names labels.
 */
export async function createMissingLabels(t: Transport, names: readonly string[]): Promise<boolean> {
  const repository = t.labelIds.repositoryId();
  if (repository === null) return false;
  const wanted = new Map<string, string>();
  for (const name of [...names, ...t.labelIds.unknown(TASK_LABELS)]) wanted.set(name.toLowerCase(), name);
  const missing = [...wanted.values()];
  const variables: Record<string, unknown> = { repository };
  missing.forEach((name, i) => {
    const known = LOCUS_LABELS.find((label) => label.name.toLowerCase() === name.toLowerCase());
    variables[`name${i}`] = name;
    variables[`color${i}`] = known?.color ?? DEFAULT_COLOR;
    variables[`description${i}`] = known?.description ?? null;
  });
  try {
    const data = await t.graphql(
      "CreateLabels",
      createLabelsMutation(missing.length),
      variables,
      payloadSchema,
    );
    for (const payload of Object.values(data))
      if (payload?.label) t.labelIds.remember(payload.label.name, payload.label.id);
  } catch {
    // One refused (someone created it meanwhile, or the token may not): REST writes by name instead.
    return false;
  }
  return t.labelIds.unknown(names).length === 0;
}
