import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { defaultConfig, loadConfig, type LoadConfigResult } from "../../../lib/config/index.ts";

function expectOk(result: LoadConfigResult) {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.errors)}`);
  return result;
}

function expectErrors(result: LoadConfigResult) {
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.config)}`);
  return result.errors;
}

describe("loadConfig without a file", () => {
  it.each([
    ["no file", null],
    ["an empty file", ""],
    ["a blank file", "  \n\n\t\n"],
    ["a comments-only file", "# locus config\n# agent:\n#   maxTurns: 10\n"],
    ["an explicit null document", "~\n"],
  ])("gives the defaults with no warning for %s", (_name, text) => {
    const result = expectOk(loadConfig(text));
    expect(result.config).toEqual(defaultConfig());
    expect(result.warnings).toEqual([]);
    expect(result.migratedFrom).toBeUndefined();
  });
});

describe("loadConfig with invalid YAML", () => {
  it("reports the line and column of a syntax error", () => {
    const errors = expectErrors(loadConfig("version: 3\nagent:\n  maxTurns: [1\n"));
    expect(errors[0]).toMatchObject({ line: 4, column: 1 });
    expect(errors[0]?.message).toMatch(/^line 4, column 1: Flow sequence/);
    expect(errors[0]?.path).toBeUndefined();
  });

  it("reports a duplicate key where the duplicate is", () => {
    const errors = expectErrors(loadConfig("agent:\n  model: a\n  model: b\n"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 3, column: 3 });
    expect(errors[0]?.message).toContain("unique");
  });

  it("reports a tab used as indentation", () => {
    expect(expectErrors(loadConfig("agent:\n\tmodel: x\n"))).toEqual([
      { message: "line 2, column 1: Tabs are not allowed as indentation", line: 2, column: 1 },
    ]);
  });

  it("refuses a document that is not a mapping", () => {
    expect(expectErrors(loadConfig("- agent\n- shell\n"))).toEqual([
      {
        message: "the file must be a mapping of keys (`agent:`, `shell:` …) at the top level",
        line: 1,
        column: 1,
      },
    ]);
    expect(expectErrors(loadConfig("\n\njust text\n"))[0]).toMatchObject({ line: 3, column: 1 });
  });

  it("refuses an alias bomb instead of expanding it", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (const [index, name] of ["b", "c", "d", "e", "f"].entries()) {
      const previous = String.fromCharCode("a".charCodeAt(0) + index);
      levels.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(", ")}]`);
    }
    const errors = expectErrors(loadConfig(`${levels.join("\n")}\n`));
    expect(errors[0]?.message).toMatch(/alias/i);
  });

  it("refuses a file of megabytes before parsing it", () => {
    const huge = `version: 3\nnote: "${"x".repeat(5 * 1024 * 1024)}"\n`;
    expect(expectErrors(loadConfig(huge))[0]?.message).toBe(
      "the file is 5,121 KB; Locus reads at most 64 KB of config",
    );
  });

  it("passes YAML warnings on with their position", () => {
    const result = expectOk(loadConfig("version: 3\nnote: !custom hi\n"));
    expect(result.warnings).toContain("line 2, column 7: Unresolved tag: !custom");
  });
});

// One bad value per key. `line` is where the key is written in the file built by `fileWith`.
const badValues: readonly { path: string; value: unknown; message: RegExp }[] = [
  { path: "version", value: 0, message: /whole number/ },
  { path: "version", value: 2.5, message: /whole number/ },
  { path: "version", value: "3", message: /whole number/ },
  { path: "workflow", value: "locus.txt", message: /workflow file name/ },
  { path: "workflow", value: 7, message: /expected string/ },
  { path: "baseBranch", value: "my branch", message: /branch name/ },
  { path: "baseBranch", value: " ", message: /branch name/ },
  { path: "agent.provider", value: "gpt", message: /expected one of "builtin"\|"claude-code"\|"codex"/ },
  { path: "agent.modelHost", value: "azure", message: /expected one of "anthropic"\|"bedrock"\|"vertex"/ },
  { path: "agent.acp", value: [1], message: /expected object, received array/ },
  { path: "agent.mcpServers", value: [1], message: /expected record, received array/ },
  { path: "agent.hooks", value: { when: "after-edit" }, message: /expected array/ },
  { path: "agent.model", value: "  ", message: /Too small/ },
  { path: "agent.model", value: 5, message: /expected string/ },
  { path: "agent.models", value: "claude-opus-4-5", message: /expected array/ },
  { path: "agent.maxTurns", value: 0, message: />=1/ },
  { path: "agent.maxTurns", value: 501, message: /<=500/ },
  { path: "agent.maxTurns", value: 1.5, message: /expected int/ },
  { path: "agent.maxTurns", value: "40", message: /expected number/ },
  { path: "agent.maxParallel", value: 0, message: />=1/ },
  { path: "agent.maxParallel", value: 21, message: /<=20/ },
  { path: "agent.maxCostUsd", value: 0, message: />0/ },
  { path: "agent.maxCostUsd", value: 1001, message: /<=1000/ },
  { path: "shell.allow", value: "*", message: /expected array/ },
  { path: "shell.deny", value: { push: true }, message: /expected array/ },
  { path: "shell.timeoutSeconds", value: 0, message: />=1/ },
  { path: "shell.timeoutSeconds", value: 3601, message: /<=3600/ },
  { path: "retry.budget", value: -1, message: />=0/ },
  { path: "retry.budget", value: 21, message: /<=20/ },
  { path: "retry.staleAfterMinutes", value: 0, message: />=1/ },
  { path: "iterate.onChangesRequested", value: "yes", message: /expected boolean/ },
  { path: "iterate.allowFeedbackFromNonCollaborators", value: 1, message: /expected boolean/ },
  { path: "iterate.resolveThreads", value: "yes", message: /expected boolean/ },
  { path: "prompt.includeOutsiders", value: "yes", message: /expected boolean/ },
  { path: "sprint.stopOnFailure", value: "true", message: /expected boolean/ },
  { path: "sprint.rebaseBeforeTask", value: "no", message: /expected boolean/ },
  { path: "bots.allowed", value: "dependabot[bot]", message: /expected array/ },
  { path: "review.onOpen", value: "on", message: /expected boolean/ },
  { path: "pr.draft", value: 1, message: /expected boolean/ },
  { path: "pr.humanPrs", value: "yes", message: /expected boolean/ },
  { path: "pr.blockOnVulnerable", value: "yes", message: /expected boolean/ },
  { path: "sandbox.mode", value: "maybe", message: /"required"\|"off"/ },
  { path: "sandbox.network", value: ["registry.npmjs.org"], message: /expected object/ },
  { path: "pr.restackOnMerge", value: "yes", message: /expected boolean/ },
  { path: "ci.autoFix", value: 1, message: /expected boolean/ },
  { path: "ci.maxAttempts", value: 11, message: /<=10/ },
  { path: "commit.name", value: "", message: /Too small/ },
  { path: "commit.email", value: "not an email", message: /email address/ },
  { path: "commit.via", value: "push", message: /git|api/ },
  ...[
    "agent",
    "shell",
    "retry",
    "iterate",
    "prompt",
    "sprint",
    "bots",
    "review",
    "pr",
    "sandbox",
    "ci",
    "commit",
  ].map((group) => ({
    path: group,
    value: [1],
    message: /expected object, received array/,
  })),
];

/** A valid file with `path` set to `value` on line 4 (nested key) or 3 (top-level key). */
function fileWith(path: string, value: unknown) {
  const [head = "", leaf] = path.split(".");
  const set = JSON.stringify(value);
  const lines = ["# Locus", head === "version" ? "# no version line" : "version: 3"];
  lines.push(...(leaf === undefined ? [`${head}: ${set}`] : [`${head}:`, `  ${leaf}: ${set}`]));
  if (head !== "pr") lines.push("pr:", "  draft: false");
  return `${lines.join("\n")}\n`;
}

describe("loadConfig with invalid values", () => {
  it.each(badValues)("names `$path` and its line for $value", ({ path, value, message }) => {
    const errors = expectErrors(loadConfig(fileWith(path, value)));
    expect(errors).toHaveLength(1);
    const line = path.includes(".") ? 4 : 3;
    expect(errors[0]).toMatchObject({ path, line });
    expect(errors[0]?.message).toMatch(message);
    expect(errors[0]?.message).toContain(`\`${path}\` (line ${line}): `);
  });

  it("has a bad-value case for every key the config has (drift)", () => {
    const leaves = (value: object, prefix = ""): string[] =>
      Object.entries(value).flatMap(([key, inner]) =>
        typeof inner === "object" && inner !== null && !Array.isArray(inner)
          ? leaves(inner as object, `${prefix}${key}.`)
          : [`${prefix}${key}`],
      );
    const covered = new Set(badValues.map(({ path }) => path));
    for (const key of [...leaves(defaultConfig()), "baseBranch"]) expect(covered, key).toContain(key);
  });

  it("points at the item of a list", () => {
    const errors = expectErrors(loadConfig("shell:\n  deny:\n    - git push*\n    - 42\n"));
    expect(errors).toEqual([
      {
        message: "`shell.deny[1]` (line 4): Invalid input: expected string, received number",
        path: "shell.deny[1]",
        line: 4,
        column: 7,
      },
    ]);
  });

  it("reports every invalid value at once", () => {
    const errors = expectErrors(
      loadConfig("agent:\n  maxTurns: 0\n  maxParallel: 99\npr:\n  draft: maybe\n"),
    );
    expect(errors.map(({ path, line }) => [path, line])).toEqual([
      ["agent.maxTurns", 2],
      ["agent.maxParallel", 3],
      ["pr.draft", 5],
    ]);
  });
});

describe("loadConfig with MCP servers", () => {
  it("reads stdio and HTTP servers with their secrets and defaults", () => {
    const result = expectOk(
      loadConfig(
        [
          "version: 3",
          "agent:",
          "  mcpServers:",
          "    docs: { command: npx -y @acme/docs-mcp, env: [DOCS_TOKEN] }",
          "    search: { url: https://mcp.example.com/mcp, bearer: SEARCH_TOKEN, required: true }",
          "",
        ].join("\n"),
      ),
    );
    expect(result.config.agent.mcpServers).toEqual({
      docs: { command: "npx -y @acme/docs-mcp", env: ["DOCS_TOKEN"], required: false },
      search: { url: "https://mcp.example.com/mcp", env: [], bearer: "SEARCH_TOKEN", required: true },
    });
  });

  it.each([
    ["neither command nor url", "{ env: [] }"],
    ["both command and url", "{ command: x, url: https://a.example/mcp }"],
  ])("refuses a server with %s", (_, server) => {
    const errors = expectErrors(loadConfig(`version: 3\nagent:\n  mcpServers:\n    docs: ${server}\n`));
    expect(errors.map((error) => error.message).join("; ")).toContain("give a server either command or url");
  });
});

describe("loadConfig with valid values", () => {
  it("reads every key the file sets and defaults the rest", () => {
    const result = expectOk(
      loadConfig(
        [
          "version: 3",
          "workflow: ai.yaml",
          "baseBranch: develop",
          "agent:",
          "  provider: claude-code",
          "  model: claude-opus-4-1",
          "  maxCostUsd: 2.5",
          "shell:",
          "  allow: ['npm *', 'git status']",
          "bots:",
          "  allowed: ['dependabot[bot]']",
          "commit:",
          "  name: Release Bot",
          "  email: bot@example.com",
        ].join("\n"),
      ),
    );
    expect(result.config).toMatchObject({
      workflow: "ai.yaml",
      baseBranch: "develop",
      agent: { provider: "claude-code", model: "claude-opus-4-1", maxCostUsd: 2.5, maxTurns: 40 },
      shell: { allow: ["npm *", "git status"], deny: defaultConfig().shell.deny },
      bots: { allowed: ["dependabot[bot]"] },
      commit: { name: "Release Bot", email: "bot@example.com" },
    });
  });

  it("treats a key written with no value as not set", () => {
    const result = expectOk(
      loadConfig("version:\nagent:\n  # maxTurns: 10\nshell:\n  allow:\nbaseBranch:\n"),
    );
    expect(result.config.version).toBe(3);
    expect(result.config.agent).toEqual(defaultConfig().agent);
    expect(result.config.shell.allow).toEqual(["*"]);
    expect(result.config.baseBranch).toBeUndefined();
    expect(result.warnings).toEqual([
      "defaults used for keys the file leaves out: version, workflow, agent, shell.allow, shell.deny, shell.timeoutSeconds, retry, iterate, prompt, sprint, bots, review, pr, sandbox, setup, ci, commit",
    ]);
  });
});

describe("loadConfig with missing keys", () => {
  it("lists everything it defaulted in one warning, groups once and in schema order", () => {
    const result = expectOk(
      loadConfig("version: 3\nagent:\n  model: claude-opus-4-1\nsprint:\n  stopOnFailure: false\n"),
    );
    expect(result.warnings).toEqual([
      "defaults used for keys the file leaves out: workflow, agent.provider, agent.modelHost, agent.maxTurns, agent.maxParallel, agent.maxCostUsd, shell, retry, iterate, prompt, sprint.rebaseBeforeTask, bots, review, pr, sandbox, setup, ci, commit",
    ]);
  });

  it("lists version when the file has none", () => {
    const result = expectOk(loadConfig("agent:\n  model: x\n"));
    expect(result.warnings[0]).toMatch(/leaves out: version, workflow, agent\.provider, /);
    expect(result.config.version).toBe(3);
  });

  it("warns about nothing when the file sets every key", () => {
    const result = expectOk(loadConfig(stringify(defaultConfig())));
    expect(result.warnings).toEqual([]);
  });
});

describe("loadConfig with unknown keys", () => {
  it("keeps them at every level and warns once per key with its line", () => {
    const result = expectOk(
      loadConfig(
        "version: 3\ntelemetry: false\nagent:\n  temperature: 0.2\n  extras:\n    deep: [1, 2]\nshell:\n  allow: ['*']\n",
      ),
    );
    expect(result.config).toMatchObject({
      telemetry: false,
      agent: { temperature: 0.2, extras: { deep: [1, 2] } },
    });
    expect(result.warnings.filter((warning) => warning.startsWith("unknown key"))).toEqual([
      "unknown key `telemetry` kept as is (line 2)",
      "unknown key `agent.temperature` kept as is (line 4)",
      "unknown key `agent.extras` kept as is (line 5)",
    ]);
  });

  it("does not follow Probot's `_extends`, so no chain of files can loop", () => {
    const result = expectOk(loadConfig("version: 3\n_extends: .github\nagent:\n  maxTurns: 9\n"));
    expect(result.config.agent.maxTurns).toBe(9);
    expect(Object.hasOwn(result.config, "_extends")).toBe(false);
    expect(result.warnings).toContain(
      "`_extends` is not followed: Locus reads `.github/locus.yml` on its own",
    );
    expect(result.warnings.filter((warning) => warning.includes("unknown key"))).toEqual([]);
  });

  it("drops a key named __proto__ instead of letting it set a prototype", () => {
    const result = expectOk(loadConfig("version: 3\n__proto__:\n  polluted: true\nagent:\n  __proto__: 1\n"));
    expect(Object.getPrototypeOf(result.config)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(result.config.agent)).toBe(Object.prototype);
    expect(Object.hasOwn(result.config, "__proto__")).toBe(false);
    expect(result.warnings).toEqual([
      expect.stringMatching(/^defaults used for keys/),
      "key `__proto__` ignored: it would set the object's prototype (line 2)",
      "key `agent.__proto__` ignored: it would set the object's prototype (line 5)",
    ]);
  });
});

describe("loadConfig with a newer version", () => {
  it("warns, reads the file as the current version and keeps what it does not know", () => {
    const result = expectOk(
      loadConfig("version: 9\nagent:\n  maxTurns: 12\n  planner: deep\nnewGroup:\n  x: 1\n"),
    );
    expect(result.warnings[0]).toBe(
      "config version 9 is newer than this Locus understands (v3); read as v3, keys it does not know are kept",
    );
    expect(result.config.version).toBe(3);
    expect(result.config.agent.maxTurns).toBe(12);
    expect(result.config).toMatchObject({ agent: { planner: "deep" }, newGroup: { x: 1 } });
    expect(result.migratedFrom).toBeUndefined();
  });
});

describe("loadConfig stability", () => {
  const file = "version: 3\nagent:\n  maxTurns: 12\nshell:\n  allow: [' npm test* ']\nfuture: yes\n";

  it("gives the same result when a file is loaded twice", () => {
    expect(loadConfig(file)).toEqual(loadConfig(file));
  });

  it("is a fixed point: loading the config it returned changes nothing", () => {
    const first = expectOk(loadConfig(file));
    const second = expectOk(loadConfig(stringify(first.config)));
    expect(second.config).toEqual(first.config);
    expect(second.warnings).toHaveLength(1);
    expect(second.warnings[0]).toMatch(/^unknown key `future` kept as is \(line \d+\)$/);
  });

  it("never throws, whatever the text", () => {
    const yamlish = fc.string({
      unit: fc.constantFrom(
        ...["version", "agent", "shell", "allow", "maxTurns", "model", "1", "3", "-1", "null", "true"],
        ...[
          ":",
          " ",
          "  ",
          "\n",
          "- ",
          "[",
          "]",
          "{",
          "}",
          ",",
          "&a",
          "*a",
          "!!str",
          "#",
          '"',
          "'",
          "~",
          "\t",
          "<<",
        ],
      ),
      maxLength: 60,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string(), yamlish), (text) => {
        const result = loadConfig(text);
        if (result.ok) expect(typeof result.config.agent.maxTurns).toBe("number");
        else expect(result.errors.length).toBeGreaterThan(0);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("sandbox.network.allow", () => {
  it("takes host or host:port rules and names a port out of range or a URL as the error", () => {
    const good = loadConfig(
      'version: 3\nsandbox:\n  network:\n    allow: ["registry.npmjs.org", "git.example.com:8443"]\n',
    );
    expect(good.ok && good.config.sandbox.network.allow).toEqual([
      "registry.npmjs.org",
      "git.example.com:8443",
    ]);
    for (const bad of ["registry.npmjs.org:99999", "https://registry.npmjs.org", "host:0"]) {
      const errors = expectErrors(loadConfig(`version: 3\nsandbox:\n  network:\n    allow: ["${bad}"]\n`));
      expect(errors[0]?.message, bad).toContain("expected `host` or `host:port`");
    }
  });
});
