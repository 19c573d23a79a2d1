/**
 * The sandbox's cost on a whole task: the scripted 20-turn replay (replay-script.ts) through the
 * built-in runner, the real SDK and the Anthropic fake, once with the bubblewrap sandbox (a new one
 * per replay, as per run, so the session's start is counted) and once
 * with `sandbox.mode: off`, alternating in one run so other jobs' load falls on both alike. Each
 * replay starts from a fresh worktree (set up untimed). The fake answers at once, so the model's
 * own time — seconds per turn in a real task — is left out and the ratio is the worst case.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createBuiltinRunner } from "../../lib/agent/builtin-runner.ts";
import type { AgentRunner } from "../../lib/agent/runner.ts";
import { createSandbox } from "../../lib/sandbox/create-sandbox.ts";
import { probeBubblewrap } from "../../lib/sandbox/probe.ts";
import type { Sandbox } from "../../lib/sandbox/sandbox.ts";
import { startAnthropicFake, type AnthropicFake } from "../../sandbox/anthropic-fake/server.ts";
import type { BenchContext, Figure, Skipped } from "../lib/types.ts";
import { replayFigure } from "./replay-figure.ts";
import { REPLAY_FILES, replayScript } from "./replay-script.ts";

const BENCH = "sandbox-replay";
const SYSTEM = "You are Locus, an engineer working in a git worktree. Keep changes small and tested.";

async function freshWorktree(root: string, index: number): Promise<string> {
  const dir = join(root, `wt-${index}`);
  for (const [path, content] of Object.entries(REPLAY_FILES)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "start");
  return dir;
}

function runnerIn(fake: AnthropicFake, sandbox: Sandbox): AgentRunner {
  return createBuiltinRunner({
    env: {
      ANTHROPIC_API_KEY: "sk-ant-bench",
      ANTHROPIC_BASE_URL: fake.url,
      PATH: process.env["PATH"] ?? "",
      LANG: "C.UTF-8",
    },
    shell: { allow: ["*"], deny: [], timeoutSeconds: 60 },
    sandbox,
  });
}

/** Wall milliseconds of one replay; throws when a tool call failed, so a broken sandbox cannot look fast. */
async function replay(fake: AnthropicFake, runner: AgentRunner, cwd: string): Promise<number> {
  const script = replayScript();
  fake.setScript(script);
  const start = performance.now();
  const result = await runner.execute({
    prompt: { system: SYSTEM, context: "package.json\nsrc/\ntest/", task: "## Task: #1 Add sum()" },
    cwd,
    model: "claude-sonnet-4-6",
    maxTurns: script.length + 5,
  });
  const ms = performance.now() - start;
  const failed = result.toolCalls.filter((c) => !c.ok);
  if (result.turns !== script.length || result.stop !== "finished" || failed.length > 0)
    throw new Error(
      `replay in ${runner.name} ran ${result.turns} turns (${result.stop}); failed: ${failed.map((c) => `${c.target}: ${c.summary}`).join("; ") || "none"}`,
    );
  return ms;
}

/** Part of `npm run bench -- sandbox` (index.ts). */
export async function runReplay(ctx: BenchContext): Promise<(Figure | Skipped)[]> {
  const probe = probeBubblewrap(process.env["PATH"]);
  if (!probe.ok) return [{ benchmark: BENCH, skipped: probe.reason }];
  const root = await mkdtemp(join(tmpdir(), "locus-bench-replay-"));
  const fake = await startAnthropicFake();
  const off = await createSandbox({ mode: "off", allow: [], env: process.env });
  const times = { on: [] as number[], off: [] as number[] };
  try {
    let index = 0;
    // A sandbox per replay, as per run: its session starts with the first command, timed.
    const once = async (which: "on" | "off", timed: boolean) => {
      const sandbox =
        which === "off"
          ? off
          : await createSandbox({ mode: "required", allow: ["registry.npmjs.org"], env: process.env });
      try {
        const ms = await replay(fake, runnerIn(fake, sandbox), await freshWorktree(root, index++));
        if (timed) times[which].push(ms);
      } finally {
        if (sandbox !== off) await sandbox.close();
      }
    };
    await once("on", false);
    await once("off", false);
    const repeats = ctx.repeats(10);
    for (let i = 0; i < repeats; i++) {
      // Alternate which goes first, so neither always follows the other's cache effects.
      const order: ("on" | "off")[] = i % 2 === 0 ? ["on", "off"] : ["off", "on"];
      for (const which of order) await once(which, true);
      ctx.log(
        `repeat ${i + 1}/${repeats}: on ${times.on.at(-1)?.toFixed(0)} ms, off ${times.off.at(-1)?.toFixed(0)} ms`,
      );
    }
  } finally {
    await fake.close();
    await rm(root, { recursive: true, force: true });
  }
  return [replayFigure(BENCH, replayScript().length, times.on, times.off)];
}
