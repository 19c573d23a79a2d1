import { LineCounter, parseDocument, type Document, type YAMLError } from "yaml";
import { auditKeys, isPlainObject } from "./key-audit.ts";
import {
  applyMigrations,
  migrationsFrom,
  pathBeforeMigrations,
  readVersion,
  type ConfigMigration,
} from "./migrations.ts";
import { CURRENT_CONFIG_VERSION, configSchema, defaultConfig, type LocusConfig } from "./schema.ts";
import { locateKey, type KeyPath, type SourcePosition } from "./yaml-positions.ts";
import { thousands } from "../render/thousands.ts";

export interface ConfigError {
  /** Self-contained, e.g. "`agent.maxTurns` (line 3): Too big: expected number to be <=500". */
  readonly message: string;
  /** Key path of an invalid value (`agent.maxTurns`, `shell.deny[2]`); absent for YAML syntax errors. */
  readonly path?: string;
  /** 1-based, where the key (or the syntax error) is in the file. */
  readonly line?: number;
  readonly column?: number;
}

export type LoadConfigResult =
  | {
      readonly ok: true;
      readonly config: LocusConfig;
      readonly warnings: readonly string[];
      /** The file's version when migrations were applied to it. */
      readonly migratedFrom?: number;
    }
  | { readonly ok: false; readonly errors: readonly ConfigError[] };

/**
 * A real config is a few hundred bytes. The app parses it for every event it
 * acts on, so a file of megabytes (a mistake, or an attack on the app's
 * acknowledgement deadline) is refused before the YAML parser sees it.
 */
const MAX_CONFIG_BYTES = 64 * 1024;

/**
 * Reads `.github/locus.yml`. `text` is the file's content, or null when the repository has none;
 * a missing, blank or comments-only file gives the defaults without warnings. Never throws: the
 * file is written by whoever can push to the repository, so every failure is a returned error.
 */
export function loadConfig(text: string | null): LoadConfigResult {
  if (text === null || text.trim() === "") return { ok: true, config: defaultConfig(), warnings: [] };
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_CONFIG_BYTES) {
    return {
      ok: false,
      errors: [
        {
          message: `the file is ${thousands(Math.ceil(bytes / 1024))} KB; Locus reads at most ${MAX_CONFIG_BYTES / 1024} KB of config`,
        },
      ],
    };
  }

  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    return { ok: false, errors: doc.errors.map((error) => syntaxError(error, lineCounter)) };
  }
  const warnings = doc.warnings.map((warning) => {
    const where = lineCounter.linePos(warning.pos[0]);
    return `line ${where.line}, column ${where.col}: ${warning.message}`;
  });

  let raw: unknown;
  try {
    raw = doc.toJS();
  } catch (error) {
    // toJS refuses documents whose aliases expand too far (the "billion laughs" shape).
    return { ok: false, errors: [{ message: error instanceof Error ? error.message : String(error) }] };
  }
  if (raw === null) return { ok: true, config: defaultConfig(), warnings };
  if (!isPlainObject(raw)) {
    const position = doc.contents?.range ? lineCounter.linePos(doc.contents.range[0]) : undefined;
    return {
      ok: false,
      errors: [
        {
          message: "the file must be a mapping of keys (`agent:`, `shell:` …) at the top level",
          ...(position ? { line: position.line, column: position.col } : {}),
        },
      ],
    };
  }

  // Probot's `_extends` pulls in another repository's file; Locus reads this
  // one alone, so no chain of files can loop or reach a repository it cannot see.
  const { _extends: extendsFrom, ...fields } = raw;
  if (extendsFrom !== undefined) {
    warnings.push("`_extends` is not followed: Locus reads `.github/locus.yml` on its own");
  }

  const locate = (path: KeyPath, chain: readonly ConfigMigration[]) =>
    locateInFile(doc, lineCounter, path, chain);

  const reading = readVersion(fields);
  if (!reading.ok)
    return { ok: false, errors: [schemaError(["version"], reading.message, locate(["version"], []))] };

  const chain = migrationsFrom(reading.version);
  let current = applyMigrations(fields, chain);
  if (reading.version > CURRENT_CONFIG_VERSION) {
    warnings.push(
      `config version ${reading.version} is newer than this Locus understands (v${CURRENT_CONFIG_VERSION}); read as v${CURRENT_CONFIG_VERSION}, keys it does not know are kept`,
    );
    current = { ...current, version: CURRENT_CONFIG_VERSION };
  }
  if (chain.length > 0) {
    const guessed = reading.stated ? "" : ` (no \`version:\`; its keys are v${reading.version}'s)`;
    const steps = chain.map((migration) => `v${migration.from} → v${migration.to}: ${migration.describe}`);
    warnings.push(
      `Migrated config from v${reading.version} → v${CURRENT_CONFIG_VERSION}${guessed}. ${steps.join("; ")}`,
    );
  }

  const audit = auditKeys(current, configSchema);
  const parsed = configSchema.safeParse(audit.cleaned);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => {
        const path = issue.path.map((segment) => (typeof segment === "number" ? segment : String(segment)));
        return schemaError(path, issue.message, locate(path, chain));
      }),
    };
  }

  if (audit.missing.length > 0) {
    warnings.push(`defaults used for keys the file leaves out: ${audit.missing.map(formatPath).join(", ")}`);
  }
  for (const path of audit.unknown) {
    warnings.push(`unknown key \`${formatPath(path)}\` kept as is${lineSuffix(locate(path, chain))}`);
  }
  for (const path of audit.dropped) {
    warnings.push(
      `key \`${formatPath(path)}\` ignored: it would set the object's prototype${lineSuffix(locate(path, chain))}`,
    );
  }
  return {
    ok: true,
    config: parsed.data,
    warnings,
    ...(chain.length > 0 ? { migratedFrom: reading.version } : {}),
  };
}

/** `agent.maxTurns`, `shell.deny[2]`. */
function formatPath(path: KeyPath): string {
  return path
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join("");
}

function syntaxError(error: YAMLError, lineCounter: LineCounter): ConfigError {
  const { line, col } = lineCounter.linePos(error.pos[0]);
  return { message: `line ${line}, column ${col}: ${error.message}`, line, column: col };
}

function schemaError(path: KeyPath, message: string, position: SourcePosition | undefined): ConfigError {
  const key = formatPath(path);
  return {
    message: `\`${key}\`${lineSuffix(position)}: ${message}`,
    path: key,
    ...(position ? { line: position.line, column: position.column } : {}),
  };
}

function lineSuffix(position: SourcePosition | undefined): string {
  return position ? ` (line ${position.line})` : "";
}

/**
 * A key a migration moved is written under its old path; a key the user already wrote under its
 * new path is found there. Failing both, the deepest written ancestor is close enough.
 */
function locateInFile(
  doc: Document,
  lineCounter: LineCounter,
  path: KeyPath,
  chain: readonly ConfigMigration[],
): SourcePosition | undefined {
  const asWritten = locateKey(doc, lineCounter, pathBeforeMigrations(path, chain));
  if (asWritten?.exact) return asWritten.position;
  const asIs = locateKey(doc, lineCounter, path);
  if (asIs?.exact) return asIs.position;
  return (asWritten ?? asIs)?.position;
}
