/** On installation: create the missing Locus labels; never a duplicate, existing ones only updated. */
import type { EnsureLabelsResult, LabelWrites } from "../github/index.ts";
import { LOCUS_LABELS } from "../labels/schema.ts";

export function installLabels(gateway: Pick<LabelWrites, "ensureLabels">): Promise<EnsureLabelsResult> {
  return gateway.ensureLabels(
    LOCUS_LABELS.map(({ name, color, description }) => ({ name, color, description })),
  );
}
