import { describe, expect, it } from "vitest";
import {
  CONFIG_MIGRATIONS,
  CURRENT_CONFIG_VERSION,
  defaultConfig,
  loadConfig,
} from "../../../lib/config/index.ts";
import type { LoadConfigResult } from "../../../lib/config/index.ts";
import { applyMigrations, migrationsFrom, readVersion } from "../../../lib/config/migrations.ts";

function expectOk(result: LoadConfigResult) {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.errors)}`);
  return result;
}

describe("CONFIG_MIGRATIONS", () => {
  it("form one ordered chain from v1 to the current version", () => {
    expect(CONFIG_MIGRATIONS.map(({ from, to }) => [from, to])).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(migrationsFrom(1)).toEqual(CONFIG_MIGRATIONS);
    expect(migrationsFrom(2)).toEqual(CONFIG_MIGRATIONS.slice(1));
    expect(migrationsFrom(CURRENT_CONFIG_VERSION)).toEqual([]);
    expect(migrationsFrom(CURRENT_CONFIG_VERSION + 5)).toEqual([]);
    expect(CONFIG_MIGRATIONS.at(-1)?.to).toBe(CURRENT_CONFIG_VERSION);
  });

  it("apply in order and leave their input untouched", () => {
    const v1 = Object.freeze({
      version: 1,
      model: "m",
      shell: Object.freeze({ allowlist: Object.freeze(["npm test"]) }),
    });
    const seen: number[] = [];
    const traced = CONFIG_MIGRATIONS.map((migration) => ({
      ...migration,
      migrate: (raw: Readonly<Record<string, unknown>>) => {
        seen.push(migration.from);
        return migration.migrate(raw);
      },
    }));
    expect(applyMigrations(v1, traced)).toEqual({
      version: 3,
      agent: { model: "m" },
      shell: { allow: ["npm test*"] },
    });
    expect(seen).toEqual([1, 2]);
    expect(v1).toEqual({ version: 1, model: "m", shell: { allowlist: ["npm test"] } });
  });
});

describe("readVersion", () => {
  it("takes an unversioned file with keys of an old version as that version, else as current", () => {
    expect(readVersion({ model: "x" })).toEqual({ ok: true, version: 1, stated: false });
    expect(readVersion({ maxParallel: 2, shell: { allowlist: [] } })).toEqual({
      ok: true,
      version: 1,
      stated: false,
    });
    expect(readVersion({ shell: { allowlist: [] } })).toEqual({ ok: true, version: 2, stated: false });
    expect(readVersion({ agent: { model: "x" } })).toEqual({ ok: true, version: 3, stated: false });
    expect(readVersion({ shell: "allowlist" })).toEqual({ ok: true, version: 3, stated: false });
  });

  it("takes an empty `version:` as unset", () => {
    expect(readVersion({ version: null, model: "x" })).toEqual({ ok: true, version: 1, stated: false });
    expect(readVersion({ version: null })).toEqual({ ok: true, version: 3, stated: false });
  });

  it("reads a stated version", () => {
    expect(readVersion({ version: 2, model: "x" })).toEqual({ ok: true, version: 2, stated: true });
  });
});

describe("loadConfig migrating an old file (seed: config version migration 3.0 → 3.2)", () => {
  const v1 = [
    "version: 1",
    "provider: claude-code",
    "model: claude-opus-4-1",
    "maxParallel: 5",
    "telemetry: off",
    "shell:",
    "  allowlist: [npm test, 'git status', 'make*']",
    "  extra: 1",
    "sprint:",
    "  stopOnFailure: false",
    "",
  ].join("\n");

  it("applies v1 → v2 → v3, keeps unknown keys and adds the defaults", () => {
    const result = expectOk(loadConfig(v1));
    expect(result.migratedFrom).toBe(1);
    expect(result.config).toEqual({
      ...defaultConfig(),
      agent: { ...defaultConfig().agent, provider: "claude-code", model: "claude-opus-4-1", maxParallel: 5 },
      shell: { ...defaultConfig().shell, allow: ["npm test*", "git status*", "make*"], extra: 1 },
      sprint: { stopOnFailure: false, rebaseBeforeTask: true },
      telemetry: "off",
    });
    expect(result.warnings[0]).toMatch(/^Migrated config from v1 → v3\. v1 → v2: .*; v2 → v3: .*/);
    expect(result.warnings).toContain("unknown key `telemetry` kept as is (line 5)");
    expect(result.warnings).toContain("unknown key `shell.extra` kept as is (line 8)");
    expect(
      result.warnings.some((warning) =>
        warning.includes("leaves out: workflow, agent.modelHost, agent.maxTurns"),
      ),
    ).toBe(true);
  });

  it("gives the same config as the equivalent current file", () => {
    const current = [
      "version: 3",
      "agent: { provider: claude-code, model: claude-opus-4-1, maxParallel: 5 }",
      "telemetry: off",
      "shell: { allow: [npm test*, git status*, make*], extra: 1 }",
      "sprint: { stopOnFailure: false }",
    ].join("\n");
    expect(expectOk(loadConfig(v1)).config).toEqual(expectOk(loadConfig(current)).config);
  });

  it("migrates an unversioned file that uses v1 keys, and says why", () => {
    const result = expectOk(loadConfig("model: claude-opus-4-1\nmaxTurns: 10\n"));
    expect(result.migratedFrom).toBe(1);
    expect(result.config.agent).toMatchObject({ model: "claude-opus-4-1", maxTurns: 10 });
    expect(result.warnings[0]).toMatch(
      /^Migrated config from v1 → v3 \(no `version:`; its keys are v1's\)\./,
    );
  });

  it("runs only the migrations after the file's version", () => {
    // In a v2 file a top-level `model` is not a v1 key any more: it stays, reported as unknown.
    const result = expectOk(loadConfig("version: 2\nmodel: stray\nshell:\n  allowlist: [npm]\n"));
    expect(result.migratedFrom).toBe(2);
    expect(result.config.agent.model).toBe(defaultConfig().agent.model);
    expect(result.config.shell.allow).toEqual(["npm*"]);
    expect(result.config).toHaveProperty("model", "stray");
    expect(result.warnings[0]).toMatch(/^Migrated config from v2 → v3\. v2 → v3: /);
    expect(result.warnings).toContain("unknown key `model` kept as is (line 2)");
  });

  it("adds no empty agent group when there is nothing to move, so its defaults are reported as one group", () => {
    const result = expectOk(loadConfig("version: 1\nshell:\n  allowlist: [make]\n"));
    expect(result.config.shell.allow).toEqual(["make*"]);
    expect(result.warnings[1]).toBe(
      "defaults used for keys the file leaves out: workflow, agent, shell.deny, shell.timeoutSeconds, retry, iterate, prompt, sprint, bots, review, pr, sandbox, setup, ci, commit",
    );
  });

  it("keeps a v1 key that would overwrite one already under agent, and warns", () => {
    const result = expectOk(loadConfig("version: 1\nmodel: top\nagent:\n  model: nested\n"));
    expect(result.config.agent.model).toBe("nested");
    expect(result.config).toHaveProperty("model", "top");
    expect(result.warnings).toContain("unknown key `model` kept as is (line 2)");
  });

  it("points an error on a moved key at the line the user wrote", () => {
    const result = loadConfig("version: 1\nmodel: x\nmaxTurns: 0\nshell:\n  allowlist: 5\n");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map(({ path, line, column }) => ({ path, line, column }))).toEqual([
      { path: "agent.maxTurns", line: 3, column: 1 },
      { path: "shell.allow", line: 5, column: 3 },
    ]);
  });

  it("is stable: the migrated config loads again unchanged and without a migration", () => {
    const first = expectOk(loadConfig(v1));
    const again = expectOk(loadConfig(JSON.stringify(first.config)));
    expect(again.config).toEqual(first.config);
    expect(again.migratedFrom).toBeUndefined();
  });
});
