/**
 * The prompt sanitiser's cost: a 10 KB issue comment with markup and some hidden content, beside
 * one bare micromark parse of the same text (the floor for any parser-based sanitiser here; the
 * sanitiser parses at least twice when it cuts something, to check nothing new was joined). Plain
 * prose skips the parser. The goal is ours: at 50 ms, the 20 largest comments of a prompt cost a
 * second, against a run of minutes.
 */
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { sanitizeUntrusted } from "../../lib/prompt/sanitize.ts";
import { atMost, sample, timePair, timeRuns } from "../lib/stats.ts";
import type { BenchContext, Benchmark, Figure } from "../lib/types.ts";
import { comment } from "./comment.ts";

const BENCH = "sanitize";

async function run(ctx: BenchContext): Promise<Figure[]> {
  const runs = ctx.repeats(200);
  const text = comment();
  const parse = () => fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const [sanitised, parsed] = await timePair(
    runs,
    () => Promise.resolve(sanitizeUntrusted(text)),
    () => Promise.resolve(parse()),
  );
  const prose = "The parser drops the last line when the file has no trailing newline. ".repeat(146);
  const plain = await timeRuns(runs, () => Promise.resolve(sanitizeUntrusted(prose)), 10);
  const value = sample(sanitised);
  const baseline = sample(parsed);
  ctx.log(`10 KB comment: ${value.median.toFixed(2)} ms, one parse ${baseline.median.toFixed(2)} ms`);
  return [
    {
      benchmark: BENCH,
      name: "sanitise a 10 KB comment with markup",
      unit: "ms",
      value,
      baseline: { name: "one micromark + GFM parse", value: baseline },
      ratio: value.median / baseline.median,
      goals: [atMost("≤ 50 ms per 10 KB comment", value.median, 50)],
    },
    {
      benchmark: BENCH,
      name: "sanitise 10 KB of plain prose (no `<`, `[` or `$`: not parsed)",
      unit: "ms",
      value: sample(plain),
      goals: [],
    },
  ];
}

export const sanitizeBenchmark: Benchmark = {
  name: BENCH,
  description: "prompt sanitiser: time per 10 KB comment against one Markdown parse",
  run,
};
