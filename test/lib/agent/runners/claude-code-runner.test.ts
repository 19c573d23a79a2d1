import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../lib/agent/events.ts";
import { createRunner, ProviderUnavailableError } from "../../../../lib/agent/create-runner.ts";
import type { ExecuteOptions } from "../../../../lib/agent/runner.ts";
import { installFakeCli, processGone } from "./fake-cli.ts";

let cwd: string;
let events: AgentEvent[];

function runner(path: string) {
  return createRunner("claude-code", {
    env: { PATH: path, HOME: "/home/runner", ANTHROPIC_API_KEY: "sk-ant-cli", GITHUB_TOKEN: "ghs_secret" },
    shell: { allow: ["*"], deny: ["git push*", "git remote*", "*--upload-pack*"], timeoutSeconds: 60 },
  });
}

function execute(overrides: Partial<ExecuteOptions> = {}): ExecuteOptions {
  return {
    prompt: { system: "Follow LOCUS.md.", context: "Repository: greet.js", task: "Fix the greeting typo" },
    cwd,
    model: "claude-sonnet-4-6",
    maxTurns: 12,
    onEvent: (event) => events.push(event),
    ...overrides,
  };
}

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "locus-claude-"));
  events = [];
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("claude-code runner", () => {
  it("names the issue's images as files in a directory of the run's own, removed when the CLI is done", async () => {
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-stream.jsonl",
      cwd,
    });
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]);
    const image = {
      name: "image-1.png",
      from: "a comment by @wendy",
      mediaType: "image/png" as const,
      bytes: png,
    };

    await runner(cli.path).execute(
      execute({ prompt: { system: "", context: "", task: "Fix it", images: [image] } }),
    );

    const stdin = await cli.stdin();
    const file = /`([^`]*locus-images-[^`]*\/image-1\.png)`: from a comment by @wendy/.exec(stdin)?.[1];
    expect(file, stdin).toBeDefined();
    await expect(access(file ?? "")).rejects.toThrow();
  });

  it("runs claude -p with stream-json, the task on stdin, and maps its events and result", async () => {
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-stream.jsonl",
      cwd,
    });

    const result = await runner(cli.path).execute(execute());

    expect(await cli.args()).toEqual([
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "claude-sonnet-4-6",
      "--max-turns",
      "12",
      "--append-system-prompt",
      "Follow LOCUS.md.",
      "--dangerously-skip-permissions",
      "--disallowedTools",
      "Bash(git push:*),Bash(git remote:*)",
    ]);
    expect(await cli.stdin()).toBe("Repository: greet.js\n\nFix the greeting typo");
    const env = await cli.env();
    expect(env).toContain("ANTHROPIC_API_KEY=sk-ant-cli");
    expect(env).not.toContain("ghs_secret");

    expect(result).toMatchObject({
      success: true,
      stop: "finished",
      turns: 7,
      costUsd: 0.04216275,
      usage: { inputTokens: 22, outputTokens: 612, cacheReadTokens: 64382, cacheWriteTokens: 7083 },
      filesChanged: ["src/greet.js"],
      questions: [],
    });
    expect(result.summary).toMatch(/^Fixed the typo: `greet` now returns "hello <name>"/);
    expect(result.toolCalls).toEqual([
      { name: "Read", target: "src/greet.js", ok: true, summary: "Read src/greet.js" },
      { name: "Edit", target: "src/greet.js", ok: true, summary: "Edit src/greet.js" },
      {
        name: "Bash",
        target: "npm test",
        ok: false,
        summary:
          'Bash npm test → error: npm error Missing script: "test"\n\nnpm error To see a list of scripts, run:\nnpm error   npm run',
      },
    ]);
    const edit = events.find((e) => e.type === "tool_completed" && e.tool === "Edit");
    expect(edit?.type === "tool_completed" && edit.diff).toBe(
      '--- a/src/greet.js\n+++ b/src/greet.js\n@@\n-  return "helo " + name;\n+  return "hello " + name;\n',
    );
    expect(events[0]).toMatchObject({ type: "start", runner: "claude-code", model: "claude-sonnet-4-6" });
    expect(events.filter((e) => e.type === "turn")).toHaveLength(4);
    expect(events.find((e) => e.type === "text_delta")).toEqual({
      type: "text_delta",
      content: "I'll start by reading the greeting module.",
    });
    expect(events.at(-1)).toMatchObject({ type: "done", success: true, stats: { turns: 7, tools: 3 } });
  });

  it("reports Claude Code's max-turns stop", async () => {
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-max-turns.jsonl",
      cwd,
    });

    const result = await runner(cli.path).execute(execute({ maxTurns: 2 }));

    expect(result).toMatchObject({ success: false, stop: "max_turns", turns: 2, costUsd: 0.0261 });
    expect(result.error).toBe("stopped after 2 turns (max turns) before finishing");
    expect(result.toolCalls).toEqual([{ name: "Grep", target: "greet", ok: true, summary: "Grep greet" }]);
  });

  it("uses plan mode for read-only tasks", async () => {
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-stream.jsonl",
      cwd,
    });

    await runner(cli.path).execute(execute({ readOnly: true }));

    const args = await cli.args();
    expect(args).toContain("plan");
    expect(args).not.toContain("--dangerously-skip-permissions");
  });

  it("fails with the exit status and stderr when the CLI ends without a result", async () => {
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      cwd,
      exitCode: 1,
      stderr: "Invalid API key · Please run /login",
    });

    const result = await runner(cli.path).execute(execute());

    expect(result).toMatchObject({ success: false, stop: "failed" });
    expect(result.error).toBe("claude exited with code 1: Invalid API key · Please run /login");
    expect(events.at(-2)).toEqual({ type: "error", message: result.error, retryable: false });
  });

  it("kills the whole process group on abort", async () => {
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-stream.jsonl",
      cwd,
      hang: true,
    });
    const controller = new AbortController();
    const started = Date.now();

    const result = await runner(cli.path).execute(
      execute({
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === "done" || event.type === "error") events.push(event);
          if (event.type === "tool_started") controller.abort();
        },
      }),
    );

    expect(result).toMatchObject({ success: false, stop: "aborted", error: "aborted" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await processGone(await cli.sleeperPid())).toBe(true);
  });

  it("reports its version and availability from PATH", async () => {
    const cli = await installFakeCli({ name: "claude", version: "2.1.3 (Claude Code)", cwd });

    expect(await runner(cli.path).isAvailable()).toBe(true);
    expect(await runner(cli.path).version()).toBe("2.1.3 (Claude Code)");
    expect(await runner("/nonexistent").isAvailable()).toBe(false);
  });

  it("names the missing CLI and how to install it", async () => {
    const error = await runner("/nonexistent")
      .execute(execute())
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).provider).toBe("claude-code");
    expect((error as Error).message).toBe(
      "`claude` was not found on PATH; install Claude Code (npm i -g @anthropic-ai/claude-code) or set provider: builtin",
    );
  });
});
