import { isPlainObject, type RawConfig } from "./key-audit.ts";
import { CURRENT_CONFIG_VERSION } from "./schema.ts";
import type { KeyPath } from "./yaml-positions.ts";

export interface ConfigMigration {
  readonly from: number;
  readonly to: number;
  readonly describe: string;
  /**
   * Keys this migration may move, new dotted path → old dotted path. Used to recognise an
   * unversioned old file and to point an error on a moved key at the line the user wrote.
   */
  readonly moved: Readonly<Record<string, string>>;
  /** Pure: returns a new object, leaves keys it does not handle untouched, sets `version: to`. */
  migrate(raw: RawConfig): RawConfig;
}

const V1_AGENT_KEYS = ["provider", "model", "maxTurns", "maxParallel"] as const;

/** Ordered oldest first; each `to` is the next one's `from`, ending at the current version. */
export const CONFIG_MIGRATIONS: readonly ConfigMigration[] = [
  {
    from: 1,
    to: 2,
    describe: "top-level provider, model, maxTurns and maxParallel moved under agent",
    moved: Object.fromEntries(V1_AGENT_KEYS.map((key) => [`agent.${key}`, key])),
    migrate(raw) {
      const agent = raw["agent"] ?? {};
      // A key that cannot move (agent is not a mapping, or already sets it) stays where it is and
      // is reported as unknown: nothing the user wrote is dropped.
      if (!isPlainObject(agent)) return { ...raw, version: 2 };
      const movable = V1_AGENT_KEYS.filter((key) => Object.hasOwn(raw, key) && !Object.hasOwn(agent, key));
      if (movable.length === 0) return { ...raw, version: 2 };
      const rest = Object.entries(raw).filter(([key]) => !(movable as string[]).includes(key));
      const moved = movable.map((key) => [key, raw[key]]);
      return { ...Object.fromEntries(rest), agent: { ...agent, ...Object.fromEntries(moved) }, version: 2 };
    },
  },
  {
    from: 2,
    to: 3,
    describe:
      "shell.allowlist (command prefixes) became shell.allow (whole-command globs, `npm test` → `npm test*`); shell.deny introduced with its default list",
    moved: { "shell.allow": "shell.allowlist" },
    migrate(raw) {
      const shell = raw["shell"];
      if (!isPlainObject(shell) || !Object.hasOwn(shell, "allowlist") || Object.hasOwn(shell, "allow"))
        return { ...raw, version: 3 };
      const { allowlist, ...restOfShell } = shell;
      // v2 allowed a command when it started with an entry; a trailing `*` keeps exactly that.
      const allow = Array.isArray(allowlist)
        ? allowlist.map((entry: unknown) =>
            typeof entry === "string" && !entry.endsWith("*") ? `${entry}*` : entry,
          )
        : allowlist;
      return { ...raw, shell: { ...restOfShell, allow }, version: 3 };
    },
  },
];

export type VersionReading =
  | { readonly ok: true; readonly version: number; readonly stated: boolean }
  | { readonly ok: false; readonly message: string };

/**
 * The version a file is written in. Without `version:`, a file using a key that some migration
 * moves away is as old as the oldest such migration (migrations skip what is absent, so starting
 * early is safe); any other file is taken as current, so a new user never has to write `version:`.
 */
export function readVersion(raw: RawConfig): VersionReading {
  const stated = raw["version"];
  // `version:` with no value is unset, like any other empty key.
  if (stated === undefined || stated === null) {
    const oldest = CONFIG_MIGRATIONS.find((migration) =>
      Object.values(migration.moved).some((oldPath) => hasPath(raw, oldPath.split("."))),
    );
    return { ok: true, version: oldest?.from ?? CURRENT_CONFIG_VERSION, stated: false };
  }
  if (typeof stated !== "number" || !Number.isSafeInteger(stated) || stated < 1) {
    return {
      ok: false,
      message: `expected a whole number of at least 1 (current is ${CURRENT_CONFIG_VERSION})`,
    };
  }
  return { ok: true, version: stated, stated: true };
}

/** Migrations that take a file from `version` to the current one, in the order they apply. */
export function migrationsFrom(version: number): ConfigMigration[] {
  const chain: ConfigMigration[] = [];
  let at = version;
  while (at < CURRENT_CONFIG_VERSION) {
    const next = CONFIG_MIGRATIONS.find((migration) => migration.from === at);
    if (next === undefined) throw new Error(`No config migration from v${at}`);
    chain.push(next);
    at = next.to;
  }
  return chain;
}

export function applyMigrations(raw: RawConfig, chain: readonly ConfigMigration[]): RawConfig {
  return chain.reduce((current, migration) => migration.migrate(current), raw);
}

/** The path a key had in the file before `chain` moved it (the path itself if nothing moved it). */
export function pathBeforeMigrations(path: KeyPath, chain: readonly ConfigMigration[]): KeyPath {
  return chain.reduceRight<KeyPath>((current, migration) => {
    for (const [newPath, oldPath] of Object.entries(migration.moved)) {
      const prefix = newPath.split(".");
      if (prefix.every((segment, index) => current[index] === segment)) {
        return [...oldPath.split("."), ...current.slice(prefix.length)];
      }
    }
    return current;
  }, path);
}

function hasPath(raw: RawConfig, path: readonly string[]): boolean {
  const [head, ...rest] = path;
  if (head === undefined || !Object.hasOwn(raw, head)) return false;
  const value = raw[head];
  return rest.length === 0 || (isPlainObject(value) && hasPath(value, rest));
}
