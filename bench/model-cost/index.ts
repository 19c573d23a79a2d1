/**
 * Issue item 3, model cost: scripted 20- and 40-turn tasks through the built-in runner and the
 * real SDK against the Anthropic fake, whose cache report bills what Anthropic's prompt cache
 * would serve. The no-caching baseline is the same requests billed with every input token
 * fresh. The two tasks share one process, tools and system prompt, like two tasks of a sprint.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBuiltinRunner } from "../../lib/agent/builtin-runner.ts";
import { costUsd } from "../../lib/agent/pricing.ts";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startAnthropicFake } from "../../sandbox/anthropic-fake/server.ts";
import type { CacheUsage, FakeTurn, RecordedRequest } from "../../sandbox/anthropic-fake/types.ts";
import { atLeast, atMost, exact, holds } from "../lib/stats.ts";
import type { BenchContext, Benchmark, Figure } from "../lib/types.ts";

const BENCH = "model-cost";
const MODEL = "claude-sonnet-4-6";
const TASKS = [20, 40];
/** A stable system prompt of realistic size (rules plus an AGENTS.md); it must clear the cache minimum. */
const SYSTEM = [
  "You are Locus, an engineer working in a git worktree.",
  ...Array.from(
    { length: 60 },
    (_, i) => `Rule ${i + 1}: keep changes small, tested and readable; explain why in comments.`,
  ),
].join("\n");
const CONTEXT = Array.from({ length: 200 }, (_, i) => `src/module-${i}.ts`).join("\n");

/** T turns: reads and searches over source files (results grow the conversation), then finish. */
function script(turns: number): FakeTurn[] {
  return Array.from({ length: turns }, (_, i): FakeTurn => {
    if (i === turns - 1) return reply(call("finish", { summary: `Done after ${turns} turns.` }));
    return i % 2 === 0
      ? reply(call("read_file", { path: `src/file-${i % 10}.ts` }))
      : reply(call("search_text", { pattern: `value${i % 7}` }));
  });
}

function promptTokens(u: CacheUsage): number {
  return u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
}

function prefixHash(request: RecordedRequest): string {
  const body = request.body as { tools?: unknown; system?: unknown };
  // cache_control marks are not content (moving a breakpoint does not change the prefix).
  const strip = (value: unknown) =>
    JSON.stringify(value, (key, v: unknown) => (key === "cache_control" ? undefined : v));
  return createHash("sha256").update(strip(body.tools)).update(strip(body.system)).digest("hex");
}

async function run(ctx: BenchContext): Promise<Figure[]> {
  const fake = await startAnthropicFake();
  const cwd = await mkdtemp(join(tmpdir(), "locus-bench-model-"));
  try {
    await mkdir(join(cwd, "src"));
    for (let i = 0; i < 10; i++)
      await writeFile(
        join(cwd, "src", `file-${i}.ts`),
        Array.from({ length: 60 }, (_, n) => `export const value${n % 7}_${i}_${n} = ${n};`).join("\n"),
      );
    const runner = createBuiltinRunner({
      env: {
        ANTHROPIC_API_KEY: "sk-ant-bench",
        ANTHROPIC_BASE_URL: fake.url,
        PATH: process.env["PATH"] ?? "",
      },
      shell: { allow: [], deny: [], timeoutSeconds: 10 },
    });
    const figures: Figure[] = [];
    const hashes = new Set<string>();
    let firstReadOfLaterTask = 0;
    for (const [index, turns] of TASKS.entries()) {
      const from = fake.requests.length;
      fake.setScript(script(turns));
      const result = await runner.execute({
        prompt: {
          system: SYSTEM,
          context: CONTEXT,
          task: `## Task: #${index + 1} Tidy the module (${turns} turns)`,
        },
        cwd,
        model: MODEL,
        maxTurns: turns + 5,
      });
      if (result.turns !== turns)
        throw new Error(`task of ${turns} turns ran ${result.turns}: ${result.error ?? result.stop}`);
      const requests = fake.requests.slice(from);
      for (const r of requests) hashes.add(prefixHash(r));
      const usages = requests.flatMap((r) => (r.usage ? [r.usage] : []));
      if (index > 0) firstReadOfLaterTask = usages[0]?.cache_read_input_tokens ?? 0;
      const read = usages.reduce((s, u) => s + u.cache_read_input_tokens, 0);
      const written = usages.reduce((s, u) => s + u.cache_creation_input_tokens, 0);
      const fresh = usages.reduce((s, u) => s + u.input_tokens, 0);
      const output = usages.reduce((s, u) => s + u.output_tokens, 0);
      const all = read + written + fresh;
      const finalPrompt = promptTokens(
        usages.at(-1) ?? { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      );
      const cached =
        costUsd(MODEL, {
          inputTokens: fresh,
          outputTokens: output,
          cacheReadTokens: read,
          cacheWriteTokens: written,
        }) ?? NaN;
      const uncached =
        costUsd(MODEL, { inputTokens: all, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0 }) ??
        NaN;
      const share = read / all;
      ctx.log(
        `${turns} turns: ${all} input tokens, ${read} read, ${written} written, $${cached.toFixed(4)} vs $${uncached.toFixed(4)}`,
      );
      figures.push(
        {
          benchmark: BENCH,
          name: `${turns}-turn task: input tokens read from cache`,
          unit: "%",
          value: exact(Math.round(share * 1000) / 10),
          baseline: { name: "no caching", value: exact(0) },
          goals: [atLeast(turns >= 40 ? "≥ 90 %" : "≥ 85 %", share * 100, turns >= 40 ? 90 : 85)],
          note: `${all.toLocaleString("en-US")} input tokens ≈ ${((all * 4) / 1e6).toFixed(1)} MB sent`,
        },
        {
          benchmark: BENCH,
          name: `${turns}-turn task: cache writes ÷ final prompt`,
          unit: "×",
          value: exact(Math.round((written / finalPrompt) * 100) / 100),
          goals: [atMost("≤ 1.3×", written / finalPrompt, 1.3)],
          note: `${written.toLocaleString("en-US")} written, final prompt ${finalPrompt.toLocaleString("en-US")} tokens`,
        },
        {
          benchmark: BENCH,
          name: `${turns}-turn task: estimated cost (${MODEL} list prices)`,
          unit: "¢",
          value: exact(Math.round(cached * 10000) / 100),
          baseline: { name: "no caching", value: exact(Math.round(uncached * 10000) / 100) },
          ratio: cached / uncached,
          goals: [],
        },
      );
    }
    figures.push(
      {
        benchmark: BENCH,
        name: "distinct tools + system prefixes across all turns of both tasks",
        unit: "",
        value: exact(hashes.size),
        goals: [atMost("1 (byte-identical)", hashes.size, 1)],
      },
      {
        benchmark: BENCH,
        name: "second task's first request: tokens read from cache",
        unit: "tokens",
        value: exact(firstReadOfLaterTask),
        goals: [holds("> 0 (shared prefix read)", firstReadOfLaterTask > 0)],
      },
    );
    return figures;
  } finally {
    await fake.close();
    await rm(cwd, { recursive: true, force: true });
  }
}

export const modelCostBenchmark: Benchmark = {
  name: BENCH,
  description: "prompt-cache share, cache writes, identical prefixes and $ per 20/40-turn task vs no caching",
  run,
};
