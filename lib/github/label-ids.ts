/**
 * The global ids of a repository's labels, by name, as reads and writes meet
 * them. A GraphQL label write names labels by id, so a batched write can go
 * out only when every label it sets is known here; otherwise the gateway
 * falls back to REST, which takes names (moment-writes.ts).
 */
export type LabelIds = {
  remember(name: string, id: string): void;
  /** The ids of these labels, or null when any is unknown. Names compare case-insensitively, as on GitHub. */
  idsOf(names: readonly string[]): string[] | null;
};

export function createLabelIds(): LabelIds {
  const byName = new Map<string, string>();
  return {
    remember(name, id) {
      byName.set(name.toLowerCase(), id);
    },
    idsOf(names) {
      const ids: string[] = [];
      for (const name of names) {
        const id = byName.get(name.toLowerCase());
        if (id === undefined) return null;
        ids.push(id);
      }
      return ids;
    },
  };
}
