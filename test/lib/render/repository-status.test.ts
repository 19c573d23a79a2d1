import { describe, expect, it } from "vitest";
import { GITHUB_BODY_LIMIT } from "../../../lib/render/comment-limit.ts";
import {
  renderRepositoryStatus,
  waitedFor,
  type RepositoryStatus,
  type StatusTask,
} from "../../../lib/render/repository-status.ts";
import { markdownLinks, sections, tableRows } from "./markdown-structure.ts";

const url = (number: number) => `https://github.com/o/r/issues/${number}`;

const empty: RepositoryStatus = {
  repository: "o/r",
  sprints: [],
  moreMilestones: 0,
  running: [],
  queued: [],
  waiting: [],
  failed: [],
  moreTasks: 0,
  pullRequests: [],
  morePullRequests: 0,
  budget: { limit: 5000, remaining: 4812, resetAt: "2026-11-24T12:40:07Z" },
};

function task(number: number, extra: Partial<StatusTask> = {}): StatusTask {
  return { number, url: url(number), title: `Task ${number}`, attempts: 0, ...extra };
}

describe("renderRepositoryStatus", () => {
  it("says None for empty lists and gives the budget with its reset time", () => {
    const parts = sections(renderRepositoryStatus(empty));
    expect(parts.get("")).toBe("## Locus status: o/r");
    for (const heading of ["Active sprints (0)", "Running (0)", "Queued (0)", "Failed (0)"]) {
      expect(parts.get(heading)).toBe("_None._");
    }
    expect(parts.get("Open Locus pull requests (0)")).toBe(
      "_None._\n\n**API budget:** 4,812 of 5,000 GitHub API calls left, resets 12:40 UTC.",
    );
  });

  it("puts a sprint's progress bar, state and tracking issue in its row", () => {
    const body = renderRepositoryStatus({
      ...empty,
      sprints: [
        {
          title: "v1 | first",
          url: "https://github.com/o/r/milestone/2",
          completed: 6,
          total: 8,
          state: "stopped",
          trackingIssue: { number: 9, url: url(9) },
        },
        { title: "v2", url: "https://github.com/o/r/milestone/3", completed: 0, total: 3, state: "waiting" },
      ],
    });
    const rows = tableRows(sections(body).get("Active sprints (2)") ?? "");
    expect(rows.map((row) => row.slice(1))).toEqual([
      ["`██████░░ 6/8`", "stopped", `[#9](${url(9)})`],
      ["`░░░░░░░░ 0/3`", "waiting", "—"],
    ]);
    expect(markdownLinks(rows[0]?.[0] ?? "")).toEqual([
      { text: "v1 \\| first", url: "https://github.com/o/r/milestone/2" },
    ]);
  });

  it("shortens a failed task's error to one line and says how to retry", () => {
    const error = `Tests failed:\n${"x".repeat(300)}`;
    const body = renderRepositoryStatus({
      ...empty,
      failed: [task(4, { sprint: "v1", attempts: 3, pr: 12, lastError: error })],
    });
    const [row] = tableRows(sections(body).get("Failed (1)") ?? "");
    expect(row?.slice(0, 5)).toEqual([`[#4](${url(4)})`, "Task 4", "v1", "3", "#12"]);
    expect(row?.[5]).toHaveLength(120);
    expect(row?.[5]).toMatch(/^Tests failed: x+…$/);
    expect(row?.[6]).toBe("comment `/locus run` on it");
  });

  it("links each open pull request and names the issue it closes", () => {
    const body = renderRepositoryStatus({
      ...empty,
      pullRequests: [
        { number: 21, url: "https://github.com/o/r/pull/21", title: "feat: a (#4)", issue: 4 },
        { number: 22, url: "https://github.com/o/r/pull/22", title: "chore" },
      ],
      morePullRequests: 3,
    });
    const section = sections(body).get("Open Locus pull requests (5)") ?? "";
    expect(tableRows(section)).toEqual([
      ["[#21](https://github.com/o/r/pull/21)", "feat: a (#4)", "#4"],
      ["[#22](https://github.com/o/r/pull/22)", "chore", "—"],
    ]);
    expect(section).toContain("_…and 3 more pull requests not shown._");
  });

  it("starts with the issue the command was posted on", () => {
    const tracked = renderRepositoryStatus({
      ...empty,
      about: { number: 4, status: "locus:in-review", pr: 12, runUrl: "https://run/1", attempts: 1 },
    });
    expect(sections(tracked).get("")?.split("\n\n")[1]).toBe(
      // A "#" that starts a paragraph is escaped; it reads the same.
      "\\#4 is `locus:in-review` · PR #12 · [last run](https://run/1) · 1 attempt.",
    );
    const untracked = renderRepositoryStatus({ ...empty, about: { number: 5, status: undefined } });
    expect(sections(untracked).get("")?.split("\n\n")[1]).toBe(
      "\\#5 is not queued. Label it `locus:queued` or comment `/locus run` to start work.",
    );
  });

  it("says what was not read beyond GitHub's first pages", () => {
    const body = renderRepositoryStatus({ ...empty, moreMilestones: 4, moreTasks: 7 });
    expect(body).toContain("_4 more open milestones were not read._");
    expect(body).toContain("_7 more open Locus issues were not read;");
  });

  it("shows fewer rows per table, counting the rest, when the whole would not fit a comment", () => {
    const long = "y".repeat(400);
    const many = Array.from({ length: 100 }, (_, index) =>
      task(index + 1, { title: long, sprint: long, lastError: long }),
    );
    const body = renderRepositoryStatus({ ...empty, running: many, queued: many, failed: many });
    expect(body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT - 1_000);
    const parts = sections(body);
    const shown = tableRows(parts.get("Failed (100)") ?? "").length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(100);
    expect(parts.get("Failed (100)")).toContain(`_…and ${100 - shown} more tasks not shown._`);
    expect(body).toContain("**API budget:**");
  });

  it("lists each waiting task with its first question, made safe to publish, and how long it has waited", () => {
    const body = renderRepositoryStatus({
      ...empty,
      waiting: [
        {
          ...task(7, { sprint: "v1", attempts: 1 }),
          questions: [
            "Ask @octocat | fixes #3 ![x](https://evil.example/p.png) <!-- hide the rest `@code`",
            "Second?",
          ],
          waitedMs: 3 * 3_600_000 + 59 * 60_000,
        },
        { ...task(8), questions: [`${"x".repeat(188)} \`x @inside a long span\``], waitedMs: undefined },
      ],
    });
    const rows = tableRows(sections(body).get("Waiting for an answer (2)") ?? "");
    expect(rows[0]?.slice(1, 5)).toEqual(["Task 7", "v1", "1", "—"]);
    const question = rows[0]?.[5] ?? "";
    expect(question).toContain("@\u2060octocat");
    expect(question).toContain("f\u2060ixes #3");
    // The image is a plain link now (the `!` is text): it loads nothing.
    expect(question).toContain("\\![x](https://evil.example/p.png)");
    expect(question).not.toMatch(/(?<!\\)<!--/);
    expect(question).toContain("`@code`");
    expect(question).toContain("_(and 1 more)_");
    expect(rows[0]?.slice(6)).toEqual(["3 h", "reply on it (a writer), or `/locus answer <text>`"]);
    // Cut before it is made safe: a code span cut open is prose, and its mention is defused too.
    expect(rows[1]?.[5]).toBe(`${"x".repeat(188)} \\\`x @\u2060inside…`);
    expect(rows[1]?.[6]).toBe("—");
    expect(body).toContain("## Locus status: o/r");
    expect(body.indexOf("### Waiting for an answer")).toBeLessThan(body.indexOf("### Failed"));
  });

  it("says how long in the unit that matters", () => {
    expect(
      [0, 59_999, 60 * 60_000, 47 * 3_600_000 + 1, 48 * 3_600_000, 9 * 86_400_000].map(waitedFor),
    ).toEqual(["0 min", "0 min", "1 h", "47 h", "2 days", "9 days"]);
  });
});
