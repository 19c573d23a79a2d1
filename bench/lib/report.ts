/** `bench/results/latest.json` and `latest.md`: one table row per figure, as the README shows them. */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Machine } from "./machine.ts";
import type { Figure, Sample, Skipped } from "./types.ts";

export const RESULTS_DIR = join(import.meta.dirname, "..", "results");

export interface RunReport {
  readonly date: string;
  readonly command: string;
  readonly machine: Machine;
  /** 1-minute load average at the start and end of each benchmark. */
  readonly load: Record<string, { readonly before: number; readonly after: number }>;
  readonly wallSeconds: number;
  readonly results: readonly (Figure | Skipped)[];
}

function num(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return n.toLocaleString("en-US");
  const abs = Math.abs(n);
  if (abs >= 100) return Math.round(n).toLocaleString("en-US");
  if (abs >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

function spread(s: Sample, unit: string): string {
  const head = `${num(s.median)} ${unit}`.trim();
  return s.runs > 1 && s.min !== s.max ? `${head} (${num(s.min)}–${num(s.max)}, n=${s.runs})` : head;
}

function row(result: Figure | Skipped): string {
  if ("skipped" in result) return `| ${result.benchmark} | skipped: ${result.skipped} | | | | |`;
  const baseline = result.baseline
    ? `${result.baseline.name}: ${spread(result.baseline.value, result.unit)}`
    : "";
  const ratio = result.ratio === undefined || !Number.isFinite(result.ratio) ? "" : `${num(result.ratio)}×`;
  const goals = result.goals.map((g) => g.text).join("; ");
  const verdict = result.goals
    .map((g) => (g.met ? "pass" : `**miss** (${g.margin ?? "see note"})`))
    .join("; ");
  const note = result.note ? ` — ${result.note}` : "";
  return `| ${result.benchmark} | ${result.name}: ${spread(result.value, result.unit)}${note} | ${baseline} | ${ratio} | ${goals} | ${verdict} |`;
}

export function renderMarkdown(report: RunReport): string {
  const m = report.machine;
  const loads = Object.entries(report.load)
    .map(([name, l]) => `${name} ${l.before}→${l.after}`)
    .join(", ");
  return [
    `# Benchmark results`,
    "",
    `\`${report.command}\` on ${report.date}, commit ${m.commit}, ${Math.round(report.wallSeconds)} s.`,
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.git}, ${m.ripgrep ?? "no ripgrep"}.`,
    `Load average (1 min) before→after each benchmark: ${loads}.`,
    "",
    "Figures are medians with (min–max, n runs); ratios are figure ÷ baseline medians from the same run.",
    "",
    "| benchmark | figure | baseline | ratio | goal | result |",
    "| --- | --- | --- | --- | --- | --- |",
    ...report.results.map(row),
    "",
  ].join("\n");
}

export async function writeReport(report: RunReport): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const markdown = renderMarkdown(report);
  await writeFile(join(RESULTS_DIR, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(RESULTS_DIR, "latest.md"), markdown);
  return markdown;
}
