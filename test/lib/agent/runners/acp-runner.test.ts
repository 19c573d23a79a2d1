import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../lib/agent/events.ts";
import { createRunner, ProviderUnavailableError } from "../../../../lib/agent/create-runner.ts";
import type { ExecuteOptions } from "../../../../lib/agent/runner.ts";
import type { AgentHook, AgentTool } from "../../../../lib/agent/tool.ts";
import type { McpServerSettings } from "../../../../lib/agent/mcp/mcp-server-settings.ts";
import { DEFAULT_SHELL_DENY } from "../../../../lib/config/index.ts";
import { z } from "zod";
import { NODE_WITH_COMPILE_CACHE } from "../../../node-with-compile-cache.ts";

const AGENT = join(import.meta.dirname, "fixtures", "scripted-acp-agent.ts");
const GREET = 'export function greet(name) {\n  return "Hello, " + name;\n}\n';

let dir: string;
let cwd: string;
let logFile: string;
let events: AgentEvent[];

function runner(
  scenario: string,
  extra: {
    cancelGraceMs?: number;
    command?: string[];
    mcpServers?: McpServerSettings[];
    hooks?: AgentHook[];
    costPerToolCallUsd?: number;
  } = {},
) {
  return createRunner("acp", {
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: dir,
      ANTHROPIC_API_KEY: "sk-ant-agent-credential-0123456789",
      GITHUB_TOKEN: "ghs_repositorySecret0123456789",
    },
    shell: { allow: ["*"], deny: [...DEFAULT_SHELL_DENY], timeoutSeconds: 30 },
    acp: {
      command: extra.command ?? [...NODE_WITH_COMPILE_CACHE, AGENT, scenario, logFile],
      env: ["ANTHROPIC_API_KEY"],
      ...(extra.costPerToolCallUsd === undefined ? {} : { costPerToolCallUsd: extra.costPerToolCallUsd }),
    },
    ...(extra.cancelGraceMs === undefined ? {} : { cancelGraceMs: extra.cancelGraceMs }),
    ...(extra.mcpServers === undefined ? {} : { mcpServers: extra.mcpServers }),
    ...(extra.hooks === undefined ? {} : { hooks: extra.hooks }),
  });
}

function execute(overrides: Partial<ExecuteOptions> = {}): ExecuteOptions {
  return {
    prompt: { system: "Follow LOCUS.md.", context: "Repository: greet.js", task: "Make the greeting warmer" },
    cwd,
    model: "claude-sonnet-4-6",
    maxTurns: 12,
    onEvent: (event) => events.push(event),
    ...overrides,
  };
}

async function agentLog(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(logFile, "utf8")) as Record<string, unknown>;
}

/** The JSON-RPC error message the agent got for a step, or "" when the step succeeded. */
function errorOf(step: unknown): string {
  return typeof step === "object" && step !== null && "error" in step ? String(step.error) : "";
}

function cards(): string[] {
  return events.flatMap((event) =>
    event.type === "tool_completed" ? [`${event.tool}: ${event.summary}`] : [],
  );
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-acp-"));
  cwd = join(dir, "worktree");
  await mkdir(join(cwd, "src"), { recursive: true });
  await mkdir(join(cwd, ".git"));
  await writeFile(join(cwd, "src", "greet.js"), GREET);
  await writeFile(join(cwd, ".git", "config"), "[core]\n");
  await symlink("/etc", join(cwd, "link"));
  logFile = join(dir, "agent-log.json");
  events = [];
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("acp runner", () => {
  it("serves the agent's reads, writes and terminal through the worktree's boundary and maps its updates", async () => {
    const result = await runner("work").execute(execute());

    expect(result).toMatchObject({
      success: true,
      stop: "finished",
      summary: "Greeting fixed: it now says hello there.",
    });
    expect(await readFile(join(cwd, "src", "greet.js"), "utf8")).toBe(
      GREET.replace("Hello, ", "Hello there, "),
    );
    expect(result.filesChanged).toContain("src/greet.js");
    expect(result.costUsd).toBe(0.25);
    const log = await agentLog();
    expect(log["initialize"]).toMatchObject({
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    });
    expect(log["sessionNew"]).toEqual({ cwd, mcpServers: [] });
    expect(log["prompt"]).toContain("Follow LOCUS.md.");
    expect(log["prompt"]).toContain("Make the greeting warmer");
    expect(log["prompt"]).toContain("You have no `finish` tool in this session");
    expect(log["read"]).toBe(GREET);
    // The agent has its own credential; the commands Locus runs for it have none.
    expect(log["env"]).toEqual({
      ANTHROPIC_API_KEY: "sk-ant-agent-credential-0123456789",
      GITHUB_TOKEN: null,
    });
    expect(log["output"]).toBe("checked\nsecret=\n");
    expect(log["exit"]).toEqual({ exitCode: 0, signal: null });
    expect(cards()).toEqual([
      "plan: Plan: 0/2 done — now: Read the greeting",
      "read_file: Read src/greet.js",
      "edit_file: Edit src/greet.js (+1 −1)",
      "run_shell: node --version",
    ]);
    const edit = events.find((event) => event.type === "tool_completed" && event.tool === "edit_file");
    expect(edit?.type === "tool_completed" ? edit.diff : "").toContain('+  return "Hello there, " + name;');
    expect(events.at(-1)).toMatchObject({ type: "done", success: true, stats: { costUsd: 0.25, turns: 3 } });
  });

  it("gives the issue's images to an agent that takes them, as the protocol's image blocks after the text", async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]);
    const image = {
      name: "image-1.png",
      from: "the issue description",
      mediaType: "image/png" as const,
      bytes: png,
    };

    const result = await runner("work").execute(
      execute({ prompt: { system: "", context: "", task: "Fix the header", images: [image] } }),
    );

    expect(result.success).toBe(true);
    const log = await agentLog();
    expect(log["images"]).toEqual([{ mimeType: "image/png", data: Buffer.from(png).toString("base64") }]);
    expect(String(log["prompt"])).toContain("- image-1.png: from the issue description");
  });

  it("offers the configured MCP servers in session/new, with only their own secrets and programs found outside the repository", async () => {
    await runner("answer", {
      mcpServers: [
        { name: "docs", command: "npx -y @acme/docs-mcp", env: ["ANTHROPIC_API_KEY"], required: false },
        { name: "search", url: "https://mcp.example.com/mcp", env: [], required: false },
        { name: "planted", command: "./tools/mcp", env: ["ANTHROPIC_API_KEY"], required: false },
      ],
    }).execute(execute());

    expect((await agentLog())["sessionNew"]).toEqual({
      cwd,
      mcpServers: [
        {
          name: "docs",
          // npx as found on PATH, by its real path: the agent cannot be handed a program of the worktree.
          command: expect.stringMatching(/^\/.*npx/) as unknown,
          args: ["-y", "@acme/docs-mcp"],
          env: [{ name: "ANTHROPIC_API_KEY", value: "sk-ant-agent-credential-0123456789" }],
        },
      ],
    });
    expect(events).toContainEqual({
      type: "warning",
      message: "MCP server search was not offered: the agent cannot reach an HTTP MCP server",
    });
    expect(events).toContainEqual({
      type: "warning",
      message: expect.stringMatching(/^MCP server planted was not offered: .*relative path/) as unknown,
    });
  });

  it("runs the configured edit hooks around the agent's writes, and a failing before-edit hook blocks one", async () => {
    await runner("work", {
      hooks: [{ when: "after-edit", files: "*.js", command: "printf '// checked\\n' >> {path}" }],
    }).execute(execute());

    expect(await readFile(join(cwd, "src", "greet.js"), "utf8")).toBe(
      `${GREET.replace("Hello, ", "Hello there, ")}// checked\n`,
    );

    await writeFile(join(cwd, "src", "greet.js"), GREET);
    const blocked = await runner("work", {
      hooks: [{ when: "before-edit", command: "echo 'frozen file' && exit 1" }],
    }).execute(execute());

    expect(blocked.success).toBe(false);
    expect(await readFile(join(cwd, "src", "greet.js"), "utf8")).toBe(GREET);
    expect(cards()).toContainEqual(
      expect.stringMatching(/^refused: Refused write .*A before-edit hook failed/),
    );
  });

  it("runs the configured command hooks around the agent's terminals, and a failing before-command hook refuses one", async () => {
    const ran = await runner("one-command", {
      hooks: [
        { when: "before-command", commands: "echo *", command: "echo checking {command}" },
        { when: "after-command", command: "echo done with {command}" },
        { when: "after-command", commands: "npm *", command: "echo never" },
      ],
    }).execute(execute());

    expect(ran.success).toBe(true);
    const quoted = `'echo '\\''built it'\\'''`;
    expect((await agentLog())["command"]).toEqual({
      ok: {
        exit: { exitCode: 0, signal: null },
        output:
          `built it\n\nbefore-command hook \`echo checking ${quoted}\` → exit 0\nchecking echo 'built it'` +
          `\n\nafter-command hook \`echo done with ${quoted}\` → exit 0\ndone with echo 'built it'`,
      },
    });

    const refused = await runner("one-command", {
      hooks: [{ when: "before-command", command: "echo 'not on Fridays' >&2; exit 1" }],
    }).execute(execute());

    expect(refused.success).toBe(true);
    const error = errorOf((await agentLog())["command"]);
    expect(error).toContain("A before-command hook refused this command, so it was not run.");
    expect(error).toContain("→ exit 1\nnot on Fridays");
    expect(cards()).toContain("refused: Refused `echo built it`: a before-command hook refused it");
  });

  it("refuses paths outside the worktree, inside .git and through a symlink, and writes nothing there", async () => {
    const result = await runner("refused-path").execute(execute());

    expect(result.success).toBe(true);
    const log = await agentLog();
    expect(errorOf(log["readOutside"])).toContain("/etc/passwd is outside the worktree");
    expect(errorOf(log["writeOutside"])).toContain("outside the worktree");
    expect(errorOf(log["writeGit"])).toContain("inside .git");
    expect(errorOf(log["readLink"])).toContain("through a symlink");
    await expect(readFile(join(dir, "escaped.txt"), "utf8")).rejects.toThrow();
    expect(await readFile(join(cwd, ".git", "config"), "utf8")).toBe("[core]\n");
    expect(cards().filter((card) => card.startsWith("refused:"))).toHaveLength(4);
  });

  it("refuses a terminal command the shell policy denies, however it is spelled", async () => {
    await runner("refused-command").execute(execute());

    const log = await agentLog();
    expect(errorOf(log["push"])).toContain('denied shell pattern "git push*"');
    expect(errorOf(log["chained"])).toContain('"git push --force"');
    expect(cards()).toContain(
      'refused: Refused `git push origin main`: "git push origin main" matches the repository\'s denied shell pattern "git push*"',
    );
  });

  it("answers permission requests from the shell policy and the worktree, never with allow-always", async () => {
    await runner("permission").execute(execute());

    const log = await agentLog();
    expect(log["test"]).toEqual({ outcome: { outcome: "selected", optionId: "once" } });
    expect(log["push"]).toEqual({ outcome: { outcome: "selected", optionId: "no" } });
    expect(log["editOutside"]).toEqual({ outcome: { outcome: "selected", optionId: "no" } });
  });

  it("refuses writes and commands in a read-only run", async () => {
    const result = await runner("work").execute(execute({ readOnly: true }));

    expect(result.success).toBe(false);
    expect(await readFile(join(cwd, "src", "greet.js"), "utf8")).toBe(GREET);
    expect(cards()).toContainEqual(expect.stringMatching(/^refused: Refused write .*read-only/));
  });

  it("stops at the cost limit from the cost the agent reports, with session/cancel", async () => {
    const result = await runner("work").execute(execute({ maxCostUsd: 0.1 }));

    expect(result).toMatchObject({
      success: false,
      stop: "cost_limit",
      error: "cost limit reached: $0.2500 spent, limit $0.10",
      costUsd: 0.25,
    });
  });

  it("stops an agent that reports no cost when it starts a tool call past its grace, with session/cancel", async () => {
    const result = await runner("unreported-until-cancelled").execute(execute({ maxCostUsd: 5 }));

    expect(result).toMatchObject({ success: false, stop: "cost_unreported", costUsd: 0 });
    expect(result.turns).toBeGreaterThanOrEqual(4);
    expect(result.error).toBe(
      "the agent reported no cost (ACP usage_update in USD) in its first 3 tool calls, so Locus could not hold it to the cost limit of $5.00. " +
        "Give `agent.acp.costPerToolCallUsd` in `.github/locus.yml` (what to count per tool call; 0 for an agent that costs nothing per use), " +
        "or use an agent that reports its cost",
    );
    expect((await agentLog())["cancelled"]).toBe(true);
    // The edit it made stays in the worktree for the caller to save.
    expect(await readFile(join(cwd, "src", "greet.js"), "utf8")).toContain('"Hello there, "');
    expect(events.filter((event) => event.type === "warning")).toEqual([]);
  });

  it("lets an agent that reports no cost run to its end when no cost limit is set, and says so", async () => {
    const result = await runner("unreported").execute(execute());

    expect(result).toMatchObject({ success: true, stop: "finished", costUsd: 0, turns: 6 });
    expect(events).toContainEqual({
      type: "warning",
      message:
        "the ACP agent reported no cost (session usage_update): Locus reports $0; set agent.acp.costPerToolCallUsd to count it",
    });
  });

  it("holds the cost limit on agent.acp.costPerToolCallUsd for an agent that reports no cost", async () => {
    const capped = await runner("unreported-until-cancelled", { costPerToolCallUsd: 0.5 }).execute(
      execute({ maxCostUsd: 1.2 }),
    );

    // Stopped as its third tool call began; calls it started before the cancel reached it count too.
    expect(capped).toMatchObject({
      success: false,
      stop: "cost_limit",
      error: "cost limit reached: $1.5000 spent, limit $1.20",
    });
    expect(capped.costUsd).toBe(capped.turns * 0.5);
    expect((await agentLog())["cancelled"]).toBe(true);

    events = [];
    const free = await runner("unreported", { costPerToolCallUsd: 0 }).execute(execute({ maxCostUsd: 1.2 }));

    expect(free).toMatchObject({ success: true, costUsd: 0, turns: 6 });
    expect(events).toContainEqual({
      type: "warning",
      message:
        "the ACP agent reported no cost (session usage_update): Locus counted $0 per tool call (agent.acp.costPerToolCallUsd)",
    });
  });

  it("replaces the per-tool-call estimate with the cost the agent reports", async () => {
    const result = await runner("work", { costPerToolCallUsd: 1 }).execute(execute({ maxCostUsd: 5 }));

    expect(result).toMatchObject({ success: true, costUsd: 0.25 });
    expect(events.filter((event) => event.type === "warning")).toEqual([]);
  });

  it("stops once the agent's tool calls pass the turn limit", async () => {
    const result = await runner("work").execute(execute({ maxTurns: 2 }));

    expect(result).toMatchObject({ success: false, stop: "max_turns" });
    expect(result.error).toBe("stopped after 2 turns (max turns) before finishing");
  });

  it("takes a task's structured answer from the agent's final JSON", async () => {
    const recorded: unknown[] = [];
    const inputSchema = z.object({ summary: z.string(), verdict: z.enum(["comment", "approve"]) });
    const submit: AgentTool<typeof inputSchema> = {
      name: "submit_review",
      description: "The review.",
      inputSchema,
      readOnly: true,
      run: (input) => {
        recorded.push(input);
        return Promise.resolve({ content: "recorded", isError: false, summary: "Review recorded" });
      },
    };

    const result = await runner("answer").execute(execute({ readOnly: true, tools: [submit] }));

    expect(result).toMatchObject({ success: true, summary: "Review recorded" });
    expect(recorded).toEqual([{ summary: "Looks fine.", verdict: "comment" }]);
    expect(String((await agentLog())["prompt"])).toContain("This run has no `submit_review` tool");
  });

  it("stops cleanly with the exit status and stderr when the agent crashes", async () => {
    const result = await runner("crash").execute(execute());

    expect(result.success).toBe(false);
    expect(result.stop).toBe("failed");
    expect(result.error).toMatch(/exited with code 3: scripted agent: out of memory \(on purpose\)/);
    expect(events.at(-1)).toMatchObject({ type: "done", success: false });
  });

  it("stops an agent that writes something other than JSON-RPC", async () => {
    const result = await runner("malformed", { cancelGraceMs: 50 }).execute(execute());

    expect(result).toMatchObject({ success: false, stop: "failed" });
    expect(result.error).toContain("it wrote a line that is not JSON: Traceback");
  });

  it("sends session/cancel on abort and reports the run aborted", async () => {
    const abort = new AbortController();
    const result = await runner("cancel").execute(
      execute({
        signal: abort.signal,
        onEvent: (event) => {
          events.push(event);
          if (event.type === "tool_started") abort.abort();
        },
      }),
    );

    expect(result).toMatchObject({ success: false, stop: "aborted" });
    expect((await agentLog())["cancelled"]).toBe(true);
  });

  it("stops the process of an agent that ignores session/cancel at the time limit", async () => {
    const result = await runner("deaf", { cancelGraceMs: 50 }).execute(execute({ timeLimitMs: 300 }));

    expect(result).toMatchObject({ success: false, stop: "time_limit", error: "time limit of 1 s reached" });
  });

  it("says what is missing when no agent command is configured or it is not installed", async () => {
    await expect(runner("work", { command: [] }).execute(execute())).rejects.toThrow(
      new ProviderUnavailableError(
        "acp",
        "provider acp needs agent.acp.command in .github/locus.yml: the ACP agent to start (for example `npx -y @zed-industries/claude-code-acp`)",
      ),
    );
    await expect(runner("work", { command: ["no-such-acp-agent"] }).execute(execute())).rejects.toThrow(
      /agent.acp.command: `no-such-acp-agent` was not found on PATH/,
    );
  });

  it("never takes the agent's program from the worktree: a relative path is refused, PATH entries inside it are skipped", async () => {
    // A program the repository (or an earlier agent) planted in the worktree, executable and on PATH.
    await mkdir(join(cwd, "bin"));
    await writeFile(join(cwd, "bin", "planted-agent"), "#!/bin/sh\necho planted > planted.txt\n", {
      mode: 0o755,
    });

    await expect(runner("work", { command: ["./bin/planted-agent"] }).execute(execute())).rejects.toThrow(
      "agent.acp.command: `./bin/planted-agent` is a relative path, which would run a file from the repository's worktree",
    );
    const onPath = createRunner("acp", {
      // The checkout (GITHUB_WORKSPACE) is the repository's too, whatever worktree a task runs in.
      env: { PATH: `${join(cwd, "bin")}:bin:.`, HOME: dir, GITHUB_WORKSPACE: cwd },
      shell: { allow: ["*"], deny: [], timeoutSeconds: 30 },
      acp: { command: "planted-agent", env: [] },
    });
    await expect(onPath.execute(execute())).rejects.toThrow(
      "agent.acp.command: `planted-agent` was not found on PATH (outside the repository's worktree)",
    );
    expect(await onPath.isAvailable()).toBe(false);
    const absolute = runner("work", { command: [join(cwd, "bin", "planted-agent")] });
    await expect(absolute.execute(execute())).rejects.toThrow("lies inside the repository's worktree");
    await expect(readFile(join(cwd, "planted.txt"), "utf8")).rejects.toThrow();
  });

  it("finds a bare program name in the Action's own node_modules/.bin when PATH has none", async () => {
    // This repository's node_modules/.bin plays the Action's: `tsc` is there, and nowhere on this PATH.
    const fromAction = createRunner("acp", {
      env: { PATH: "/nonexistent", HOME: dir },
      shell: { allow: ["*"], deny: [], timeoutSeconds: 30 },
      acp: { command: "tsc", env: [] },
    });
    expect(await fromAction.isAvailable()).toBe(true);
  });
});
