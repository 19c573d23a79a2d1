import { describe, expect, it } from "vitest";
import { progressBar, renderTrackingDashboard } from "../../../lib/render/tracking-dashboard.ts";

const milestone = { number: 3, title: "Sprint | One", dueOn: "2026-03-07T00:00:00Z" };
const tasks = [
  {
    number: 11,
    title: "First",
    order: 1,
    labels: ["locus:done"],
    pr: 21,
    attempts: 1,
    durationMs: 95_000,
    costUsd: 0.42,
  },
  { number: 12, title: "Second", order: 2, labels: ["locus:in-review"], pr: 22, attempts: 2 },
  {
    number: 13,
    title: "Third",
    order: 3,
    labels: ["locus:failed"],
    attempts: 3,
    durationMs: 4_000,
    costUsd: 1.5,
  },
  { number: 14, title: "Fourth", order: 4, labels: [] },
];

function tableRows(body: string): string[][] {
  return body
    .split("\n")
    .filter((line) => line.startsWith("| ") && !/^\| :?-/.test(line))
    .map((line) =>
      line
        .slice(2, -2)
        .split(/(?<!\\) \| /)
        .map((cell) => cell.trim()),
    );
}

describe("progressBar", () => {
  it("fills in proportion and counts", () => {
    expect(progressBar(6, 8)).toBe("██████░░ 6/8");
    expect(progressBar(0, 0)).toBe("░░░░░░░░ 0/0");
  });
});

describe("renderTrackingDashboard", () => {
  const body = renderTrackingDashboard(milestone, tasks, {
    state: "stopped",
    runUrl: "https://x/runs/1",
    message: "#13 failed: tests broke.\nComment `/locus run` on it.",
  });

  it("has a header with the due date and the progress of completed tasks", () => {
    const lines = body.split("\n");
    expect(lines[0]).toBe("<!-- locus:sprint 3 -->");
    expect(lines[2]).toBe("## Sprint: Sprint | One · due 2026-03-07");
    expect(body).toContain("`████░░░░ 2/4` completed · stopped ([workflow run](https://x/runs/1))");
  });

  it("lists the tasks in order with status, PR, attempts, duration and cost", () => {
    expect(tableRows(body)).toEqual([
      ["Order", "Issue", "Title", "Status", "PR", "Attempts", "Duration", "Cost"],
      ["1", "#11", "First", "done", "#21", "1", "1 min 35 s", "$0.4200"],
      ["2", "#12", "Second", "in-review", "#22", "2", "—", "—"],
      ["3", "#13", "Third", "failed", "—", "3", "4 s", "$1.50"],
      ["4", "#14", "Fourth", "pending", "—", "0", "—", "—"],
    ]);
  });

  it("charts the sequence coloured by status", () => {
    const chart = /```mermaid\n([\s\S]*?)\n```/.exec(body)?.[1]?.split("\n") ?? [];
    expect(chart[0]).toBe("graph LR");
    expect(chart).toContain('  I13["#13 failed"]:::failed');
    expect(chart).toContain('  I12["#12 in-review"]:::in_review');
    expect(chart).toContain("  I11 --> I12");
    expect(chart).toContain("  I13 --> I14");
    expect(chart.filter((line) => line.startsWith("  classDef "))).toHaveLength(7);
    expect(chart).toContain("  classDef waiting fill:#fff1a8,stroke:#bf8700");
  });

  it("shows the last stop with its instructions and keeps the run state as JSON", () => {
    expect(body).toContain("### Last stop\n\n> \\#13 failed: tests broke.\n> Comment `/locus run` on it.");
    const json = /<!-- locus:sprint-state (.*) -->$/.exec(body)?.[1] ?? "";
    expect(JSON.parse(json)).toEqual({
      milestone: 3,
      state: "stopped",
      runUrl: "https://x/runs/1",
      message: "#13 failed: tests broke.\nComment `/locus run` on it.",
    });
  });

  it("stays under GitHub's limit with the state intact when the sprint is huge", () => {
    const many = Array.from({ length: 3_000 }, (_, i) => ({
      number: i + 1,
      title: "x".repeat(100),
      order: i + 1,
      labels: ["locus:queued"],
    }));
    const huge = renderTrackingDashboard(milestone, many, { state: "running" });
    expect(huge.length).toBeLessThanOrEqual(65_536);
    expect(huge).toContain("truncated:");
    expect(huge.endsWith('<!-- locus:sprint-state {"milestone":3,"state":"running"} -->')).toBe(true);
  });
});
