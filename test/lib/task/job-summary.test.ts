/**
 * GitHub drops a step's job summary whole when it is over 1 MiB, so the
 * summary's tool cards stop short of that and point to the run's log.
 */
import { describe, expect, it } from "vitest";
import { MAX_SUMMARY_BYTES, renderJobSummary } from "../../../lib/task/job-summary.ts";
import type { ModeResult, TaskReport } from "../../../lib/task/task-report.ts";

const ONE_MIB = 1024 * 1024;

function task(issue: number, diffBytes: number, cards: number): TaskReport {
  return {
    issue,
    title: `Task ${issue}`,
    status: "in-review",
    durationMs: 1000,
    costUsd: 0,
    usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    cards: Array.from({ length: cards }, (_, i) => ({
      summary: `edit_file src/f${i}.js`,
      ok: true,
      durationMs: 5,
      diff: `+${"x".repeat(diffBytes)}`,
    })),
  } as unknown as TaskReport;
}

describe("the job summary", () => {
  it("stays under GitHub's 1 MiB limit, with a link to the run's log where it stops", () => {
    const result = { tasks: [task(1, 40_000, 40), task(2, 40_000, 40)] } as unknown as ModeResult;

    const summary = renderJobSummary("issue", result, undefined, "https://github.example/o/r/actions/runs/9");

    expect(Buffer.byteLength(summary, "utf8")).toBeLessThanOrEqual(ONE_MIB);
    expect(Buffer.byteLength(summary, "utf8")).toBeGreaterThan(MAX_SUMMARY_BYTES - 50_000);
    expect(summary).toContain("[the run's log](https://github.example/o/r/actions/runs/9)");
  });

  it("is whole when it fits", () => {
    const result = { tasks: [task(1, 100, 3)] } as unknown as ModeResult;

    const summary = renderJobSummary("issue", result);

    expect(summary).not.toContain("The summary stops here");
    expect(summary.match(/edit_file/g)).toHaveLength(3);
  });
});
