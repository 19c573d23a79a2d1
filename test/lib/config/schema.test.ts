import { describe, expect, it } from "vitest";
import {
  CURRENT_CONFIG_VERSION,
  DEFAULT_SHELL_DENY,
  configJsonSchema,
  configSchema,
  defaultConfig,
} from "../../../lib/config/index.ts";

describe("defaultConfig", () => {
  it("gives every key its documented default", () => {
    expect(defaultConfig()).toEqual({
      version: 3,
      workflow: "locus.yml",
      agent: {
        provider: "builtin",
        model: "claude-sonnet-5-5",
        modelHost: "anthropic",
        maxTurns: 40,
        maxParallel: 3,
        maxCostUsd: 5,
      },
      shell: {
        allow: ["*"],
        deny: ["git push*", "git remote*", "git config*", "*--receive-pack*", "*--upload-pack*", "*ext::*"],
        timeoutSeconds: 300,
      },
      retry: { budget: 3, staleAfterMinutes: 60 },
      iterate: { onChangesRequested: true, allowFeedbackFromNonCollaborators: false, resolveThreads: true },
      prompt: { includeOutsiders: false },
      sprint: { stopOnFailure: true, rebaseBeforeTask: true },
      bots: { allowed: [] },
      review: { onOpen: false },
      pr: { draft: false, blockOnVulnerable: false, humanPrs: false, restackOnMerge: true },
      sandbox: { mode: "required", network: {} },
      setup: { network: {} },
      ci: { autoFix: true, maxAttempts: 2 },
      // The bot's login and noreply address come from GitHub (lib/git/commit-identity.ts).
      commit: { via: "git" },
    });
    expect(defaultConfig().baseBranch).toBeUndefined();
    expect(CURRENT_CONFIG_VERSION).toBe(3);
  });

  it("returns a fresh object each time, so a caller's change cannot leak into the next", () => {
    const first = defaultConfig();
    first.shell.deny.push("rm*");
    first.agent.maxTurns = 1;
    expect(defaultConfig().shell.deny).toEqual(DEFAULT_SHELL_DENY);
    expect(defaultConfig().agent.maxTurns).toBe(40);
  });
});

describe("configJsonSchema", () => {
  type JsonSchemaNode = { properties?: Record<string, JsonSchemaNode>; description?: string };
  const jsonSchema = configJsonSchema() as JsonSchemaNode;
  const properties = jsonSchema.properties ?? {};

  it("lists every top-level key of the zod schema (drift)", () => {
    const keys = Object.keys(configSchema.shape);
    expect(Object.keys(properties).sort()).toEqual([...keys].sort());
    // And the zod schema itself covers every key the defaults have, plus the optional baseBranch.
    expect([...keys].sort()).toEqual([...Object.keys(defaultConfig()), "baseBranch"].sort());
  });

  // Keys that are off unless set: they have a description but no default.
  const OFF_UNLESS_SET: Record<string, string[]> = {
    agent: ["maxCostPerDayUsd", "acp", "mcpServers", "hooks", "pricing", "models", "bedrock", "vertex"],
    commit: ["name", "email"],
    setup: ["commands"],
  };

  it("lists every key of every group, each with a description for editors", () => {
    const defaults = defaultConfig() as Record<string, unknown>;
    for (const [key, value] of Object.entries(defaults)) {
      const node = properties[key];
      expect(node?.description, key).toBeTruthy();
      if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
      expect(Object.keys(node?.properties ?? {}).sort(), key).toEqual(
        [...Object.keys(value), ...(OFF_UNLESS_SET[key] ?? [])].sort(),
      );
      for (const [inner, innerNode] of Object.entries(node?.properties ?? {})) {
        expect(innerNode.description, `${key}.${inner}`).toBeTruthy();
      }
    }
  });

  it("describes the file as written: no key is required and unknown keys are allowed", () => {
    expect(jsonSchema).not.toHaveProperty("required");
    expect(jsonSchema).toHaveProperty("additionalProperties", {});
    expect(properties["agent"]).toHaveProperty("additionalProperties", {});
    expect(properties["agent"]?.properties?.["maxParallel"]).toMatchObject({
      minimum: 1,
      maximum: 20,
      default: 3,
    });
  });
});

describe("setup", () => {
  it("takes commands and setup-only hosts", () => {
    expect(
      configSchema.parse({
        setup: { commands: ["npm ci"], network: { allow: ["npm.example.com", "localhost:4873"] } },
      }).setup,
    ).toEqual({ commands: ["npm ci"], network: { allow: ["npm.example.com", "localhost:4873"] } });
    expect(configSchema.parse({ setup: { commands: [] } }).setup.commands).toEqual([]);
  });

  it("refuses an empty command, a non-list and a malformed host", () => {
    expect(configSchema.safeParse({ setup: { commands: [""] } }).success).toBe(false);
    expect(configSchema.safeParse({ setup: { commands: "npm ci" } }).success).toBe(false);
    const badHost = configSchema.safeParse({ setup: { network: { allow: ["host:99999"] } } });
    expect(badHost.success).toBe(false);
    expect(badHost.error?.issues[0]?.path).toEqual(["setup", "network", "allow", 0]);
  });
});
