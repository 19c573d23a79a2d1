/**
 * The global ids of a repository's labels, by name, as reads and writes meet
 * them, and the repository's own global id (which creating a label takes). A
 * GraphQL label write names labels by id, so a batched write can go out only
 * when every label it sets is known here; a label the repository lacks is
 * created first, once (label-creation.ts), and REST, which takes names, is
 * the way left when that cannot be done (moment-writes.ts).
 */
export type LabelIds = {
  remember(name: string, id: string): void;
  /** The ids of these labels, or null when any is unknown. Names compare case-insensitively, as on GitHub. */
  idsOf(names: readonly string[]): string[] | null;
  /** The names among these with no id known here. */
  unknown(names: readonly string[]): string[];
  /** Records the repository's global id, as a read brought it. */
  rememberRepository(id: string): void;
  /** The repository's global id, or null before a read brought it. */
  repositoryId(): string | null;
};

export function createLabelIds(): LabelIds {
  const byName = new Map<string, string>();
  let repository: string | null = null;
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
    unknown(names) {
      return names.filter((name) => !byName.has(name.toLowerCase()));
    },
    rememberRepository(id) {
      repository = id;
    },
    repositoryId: () => repository,
  };
}
