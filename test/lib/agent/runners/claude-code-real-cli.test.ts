/**
 * The real Claude Code CLI (the copy the Claude Agent SDK ships, which the ACP adapter's tests
 * install) run by the claude-code runner in print mode against the Anthropic stand-in, the way
 * the reusable workflow runs it: its stream-json is parsed as the fixtures predict, its edit lands
 * in the worktree, and the shell deny list reaches it as --disallowedTools.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startAnthropicFake, type AnthropicFake } from "../../../../sandbox/anthropic-fake/server.ts";
import { call, reply, say } from "../../../../sandbox/anthropic-fake/script.ts";
import type { FakeReply, FakeTurn, RecordedRequest } from "../../../../sandbox/anthropic-fake/types.ts";
import { createRunner } from "../../../../lib/agent/create-runner.ts";
import { DEFAULT_SHELL_DENY } from "../../../../lib/config/index.ts";
import { NODE_COMPILE_CACHE_ENV } from "../../../../sandbox/world/node-compile-cache.ts";

const require = createRequire(import.meta.url);
const CLAUDE_CODE = join(
  dirname(
    require.resolve("@anthropic-ai/claude-agent-sdk", {
      paths: [dirname(require.resolve("@zed-industries/claude-code-acp/package.json"))],
    }),
  ),
  "cli.js",
);

let dir: string;
let cwd: string;
let bin: string;
let fake: AnthropicFake;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-claude-cli-"));
  cwd = join(dir, "worktree");
  bin = join(dir, "bin");
  await mkdir(join(cwd, "src"), { recursive: true });
  await mkdir(bin);
  await mkdir(join(dir, "home"));
  await writeFile(
    join(cwd, "src", "greet.js"),
    'export function greet(name) {\n  return "Hello, " + name;\n}\n',
  );
  // `claude` on PATH, as `npm i -g @anthropic-ai/claude-code` would put it, with Node's compile
  // cache on: the 11 MB CLI compiles once, not on every run.
  const cache = NODE_COMPILE_CACHE_ENV.NODE_COMPILE_CACHE;
  await writeFile(
    join(bin, "claude"),
    `#!/bin/sh\nNODE_COMPILE_CACHE='${cache}' exec '${process.execPath}' '${CLAUDE_CODE}' "$@"\n`,
  );
  await chmod(join(bin, "claude"), 0o755);
});

afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

/** Side calls on other models get a short answer; the task's turns play in order. */
function script(steps: readonly FakeReply[]): FakeTurn[] {
  let next = 0;
  const turn = (request: RecordedRequest): FakeReply =>
    String((request.body as { model?: string }).model).includes("sonnet")
      ? (steps[next++] ?? reply(say("Nothing left to do.")))
      : reply(say("ok"));
  return Array.from({ length: steps.length + 4 }, () => turn);
}

describe("claude-code runner with the real Claude Code CLI", () => {
  it("edits the worktree in print mode and is denied git push by the shell deny list", async () => {
    const file = join(cwd, "src", "greet.js");
    fake = await startAnthropicFake({
      script: script([
        reply(call("Read", { file_path: file })),
        reply(call("Edit", { file_path: file, old_string: '"Hello, "', new_string: '"Hi, "' })),
        reply(call("Bash", { command: "git push origin main", description: "Push" })),
        reply(say("Greeting now says Hi.")),
      ]),
    });
    const runner = createRunner("claude-code", {
      env: {
        PATH: `${bin}:${process.env["PATH"] ?? ""}`,
        HOME: join(dir, "home"),
        ANTHROPIC_API_KEY: "sk-ant-api03-cliTestKey0123456789",
        ANTHROPIC_BASE_URL: fake.url,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        // Claude Code refuses to skip permissions as root unless told it is in a sandbox (CI runs as root here).
        IS_SANDBOX: "1",
      },
      shell: { allow: ["*"], deny: [...DEFAULT_SHELL_DENY], timeoutSeconds: 30 },
    });

    expect(await runner.version()).toMatch(/\(Claude Code\)$/);
    const result = await runner.execute({
      prompt: { system: "Follow the repository's rules.", context: "", task: "Make greet say Hi." },
      cwd,
      model: "claude-sonnet-4-6",
      maxTurns: 10,
      timeLimitMs: 120_000,
    });

    expect(result).toMatchObject({ success: true, stop: "finished", summary: "Greeting now says Hi." });
    expect(await readFile(join(cwd, "src", "greet.js"), "utf8")).toContain('"Hi, "');
    expect(result.filesChanged).toEqual(["src/greet.js"]);
    expect(result.toolCalls.map((call) => `${call.name} ${call.target} ${call.ok}`)).toEqual([
      "Read src/greet.js true",
      "Edit src/greet.js true",
      "Bash git push origin main false",
    ]);
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain(
      "Permission to use Bash with command git push origin main has been denied.",
    );
    expect(result.costUsd).toBeGreaterThan(0);
    expect(fake.requests.every((request) => request.status === 200)).toBe(true);
  }, 180_000);
});
