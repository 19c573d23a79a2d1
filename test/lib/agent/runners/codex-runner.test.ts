import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../lib/agent/events.ts";
import { createRunner } from "../../../../lib/agent/create-runner.ts";
import type { ExecuteOptions } from "../../../../lib/agent/runner.ts";
import { installFakeCli, processGone } from "./fake-cli.ts";

let cwd: string;
let events: AgentEvent[];

function runner(path: string) {
  return createRunner("codex", {
    env: { PATH: path, OPENAI_API_KEY: "sk-openai", ANTHROPIC_API_KEY: "sk-ant-unused" },
    shell: { allow: ["*"], deny: [], timeoutSeconds: 60 },
  });
}

function execute(overrides: Partial<ExecuteOptions> = {}): ExecuteOptions {
  return {
    prompt: { system: "Follow AGENTS.md.", context: "Repository: greet.js", task: "Fix the greeting typo" },
    cwd,
    model: "gpt-5-codex",
    maxTurns: 12,
    onEvent: (event) => events.push(event),
    ...overrides,
  };
}

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "locus-codex-"));
  events = [];
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("codex runner", () => {
  it("runs codex exec --json with the prompt on stdin and maps items and usage", async () => {
    const cli = await installFakeCli({
      name: "codex",
      version: "codex-cli 0.58.0",
      fixture: "codex-exec.jsonl",
      cwd,
    });

    const result = await runner(cli.path).execute(execute());

    expect(await cli.args()).toEqual([
      "exec",
      "--json",
      "--model",
      "gpt-5-codex",
      "--cd",
      cwd,
      "--skip-git-repo-check",
      "--full-auto",
      "-",
    ]);
    expect(await cli.stdin()).toBe("Follow AGENTS.md.\n\nRepository: greet.js\n\nFix the greeting typo");
    const env = await cli.env();
    expect(env).toContain("OPENAI_API_KEY=sk-openai");
    expect(env).not.toContain("sk-ant-unused");
    expect(result).toMatchObject({
      success: true,
      stop: "end_turn",
      summary: "Fixed the greeting typo in src/greet.js; there are no tests to run.",
      turns: 1,
      usage: { inputTokens: 315, outputTokens: 122, cacheReadTokens: 24448, cacheWriteTokens: 0 },
      costUsd: 0,
      filesChanged: ["src/greet.js"],
    });
    expect(result.toolCalls).toEqual([
      {
        name: "run_shell",
        target: "bash -lc 'cat src/greet.js'",
        ok: true,
        summary: "Bash bash -lc 'cat src/greet.js' → exit 0",
      },
      { name: "edit_file", target: "src/greet.js", ok: true, summary: "Edit update src/greet.js" },
      {
        name: "run_shell",
        target: "bash -lc 'node --test'",
        ok: false,
        summary: "Bash bash -lc 'node --test' → exit 1",
      },
    ]);
    expect(events.filter((e) => e.type === "tool_started")).toHaveLength(3);
    expect(events).toContainEqual({
      type: "warning",
      message: "no price known for model gpt-5-codex: cost is reported as 0 unless the CLI reports it",
    });
    expect(events.at(-1)).toMatchObject({ type: "done", success: true, stats: { tools: 3, tokens: 24885 } });
  });

  it("reports a failed turn", async () => {
    const cli = await installFakeCli({
      name: "codex",
      version: "codex-cli 0.58.0",
      fixture: "codex-turn-failed.jsonl",
      cwd,
      exitCode: 1,
    });

    const result = await runner(cli.path).execute(execute());

    expect(result).toMatchObject({ success: false, stop: "failed" });
    expect(result.error).toBe("stream disconnected before completion: Your account has hit its usage limit.");
  });

  it("uses the read-only sandbox for read-only tasks", async () => {
    const cli = await installFakeCli({
      name: "codex",
      version: "codex-cli 0.58.0",
      fixture: "codex-exec.jsonl",
      cwd,
    });

    await runner(cli.path).execute(execute({ readOnly: true }));

    const args = await cli.args();
    expect(args).toContain("read-only");
    expect(args).not.toContain("--full-auto");
  });

  it("stops at the time limit and kills the process group", async () => {
    const cli = await installFakeCli({
      name: "codex",
      version: "codex-cli 0.58.0",
      fixture: "codex-exec.jsonl",
      cwd,
      hang: true,
    });

    const result = await runner(cli.path).execute(execute({ timeLimitMs: 300 }));

    expect(result).toMatchObject({ success: false, stop: "time_limit", error: "time limit of 1 s reached" });
    expect(await processGone(await cli.sleeperPid())).toBe(true);
  });

  it("names the missing CLI and reports its version", async () => {
    const cli = await installFakeCli({ name: "codex", version: "codex-cli 0.58.0", cwd });

    expect(await runner(cli.path).version()).toBe("codex-cli 0.58.0");
    await expect(runner("/nonexistent").execute(execute())).rejects.toThrow(
      "`codex` was not found on PATH; install Codex CLI (npm i -g @openai/codex) or set provider: builtin",
    );
  });
});
