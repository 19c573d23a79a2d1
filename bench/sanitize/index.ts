/**
 * The prompt sanitiser's cost: a 10 KB issue comment with markup and some hidden content, beside
 * one bare markdown-it parse of the same text in the same run (the parser the sanitiser reads with,
 * so the floor for it; the sanitiser parses a second time when it cuts something, to check nothing
 * new was joined, but without emphasis and strikethrough, which hide nothing). Plain prose skips the
 * parser. Hostile documents (1 MB, 20,000 levels deep, 60 KB of emphasis delimiters) must finish
 * within a second, bounded by the cuts of lib/prompt/markdown-bounds.ts; the publishing side
 * (`safeToPublish`) is timed on the same documents, and one markdown-it parse of each whole
 * document beside them.
 */
import MarkdownIt from "markdown-it";
import { sanitizeUntrusted } from "../../lib/prompt/sanitize.ts";
import { safeToPublish } from "../../lib/render/safe-text.ts";
import { atMost, sample, timePair, timeRuns } from "../lib/stats.ts";
import type { BenchContext, Benchmark, Figure } from "../lib/types.ts";
import { comment } from "./comment.ts";
import { hostileDocuments } from "./hostile.ts";

const BENCH = "sanitize";

/** CommonMark with raw HTML and GFM tables, as a GitHub comment is read; no rendering. */
const markdownIt = new MarkdownIt({ html: true });

function parse(text: string): unknown {
  return markdownIt.parse(text, {});
}

async function run(ctx: BenchContext): Promise<Figure[]> {
  const runs = ctx.repeats(200);
  const text = comment();
  const [sanitised, parsed] = await timePair(
    runs,
    () => Promise.resolve(sanitizeUntrusted(text)),
    () => Promise.resolve(parse(text)),
  );
  const prose = "The parser drops the last line when the file has no trailing newline. ".repeat(146);
  const plain = await timeRuns(runs, () => Promise.resolve(sanitizeUntrusted(prose)), 10);
  const value = sample(sanitised);
  const baseline = sample(parsed);
  const ratio = value.median / baseline.median;
  ctx.log(
    `10 KB comment: ${value.median.toFixed(2)} ms, one markdown-it parse ${baseline.median.toFixed(2)} ms`,
  );
  const figures: Figure[] = [
    {
      benchmark: BENCH,
      name: "sanitise a 10 KB comment with markup",
      unit: "ms",
      value,
      baseline: { name: "one markdown-it parse", value: baseline },
      ratio,
      goals: [
        atMost("≤ 10 ms per 10 KB comment", value.median, 10),
        atMost("≤ 2× one parse of the same text", ratio, 2),
      ],
    },
    {
      benchmark: BENCH,
      name: "sanitise 10 KB of plain prose (no `<`, `[` or `$`: not parsed)",
      unit: "ms",
      value: sample(plain),
      goals: [],
    },
  ];
  const hostileRuns = ctx.repeats(5);
  // What the sanitiser parses at most of a long document: its first 32 KB (twice when it cuts something).
  const head = comment(32 * 1024);
  for (const document of hostileDocuments()) {
    const times = sample(
      await timeRuns(hostileRuns, () => Promise.resolve(sanitizeUntrusted(document.text))),
    );
    const published = sample(
      await timeRuns(hostileRuns, () => Promise.resolve(safeToPublish(document.text))),
    );
    const long = document.text.length > 100_000;
    const floor = long ? sample(await timeRuns(hostileRuns, () => Promise.resolve(parse(head)))) : undefined;
    const markdownItTimes = sample(await timeRuns(hostileRuns, () => Promise.resolve(parse(document.text))));
    ctx.log(
      `${document.name}: sanitise ${times.median.toFixed(1)} ms, publish ${published.median.toFixed(1)} ms, ` +
        `one markdown-it parse ${markdownItTimes.median.toFixed(1)} ms`,
    );
    figures.push(
      {
        benchmark: BENCH,
        name: `sanitise ${document.name}`,
        unit: "ms",
        value: times,
        ...(floor && {
          baseline: { name: "one markdown-it parse of its first 32 KB", value: floor },
          ratio: times.median / floor.median,
        }),
        goals: [atMost("≤ 1 s", times.median, 1000)],
        ...(!floor && { note: "cut by the bounds; its whole parse is the next row" }),
      },
      {
        benchmark: BENCH,
        name: `one markdown-it parse of ${document.name}, whole (for comparison)`,
        unit: "ms",
        value: markdownItTimes,
        goals: [],
      },
      {
        benchmark: BENCH,
        name: `publish ${document.name} (safeToPublish)`,
        unit: "ms",
        value: published,
        goals: [atMost("≤ 1 s", published.median, 1000)],
      },
    );
  }
  return figures;
}

export const sanitizeBenchmark: Benchmark = {
  name: BENCH,
  description:
    "prompt sanitiser: time per 10 KB comment against one Markdown parse, and on hostile documents",
  run,
};
