import { describe, expect, it } from "vitest";
import { createDailyBudget, spentOn, withDaySpend } from "../../../lib/cost/daily-budget.ts";
import { EMPTY_STATE, renderStatusComment, STATUS_MARKER } from "../../../lib/status/status-comment.ts";

const status = (day: string, usd: number) =>
  `<!-- ${STATUS_MARKER} -->\n${renderStatusComment({ headline: "x" }, { ...EMPTY_STATE, daySpend: { day, usd } })}`;

describe("daily budget", () => {
  it("adds up today's spend from status comments Locus wrote, and nothing else", () => {
    const comments = [
      { body: status("2026-11-24", 0.5), author: "locus-app[bot]", viewerDidAuthor: true },
      { body: status("2026-11-24", 0.25), author: "locus[bot]", viewerDidAuthor: false },
      { body: status("2026-11-23", 9), author: "locus-app[bot]", viewerDidAuthor: true },
      { body: status("2026-11-24", 1000), author: "mallory", viewerDidAuthor: false },
      { body: "no status", author: "locus-app[bot]", viewerDidAuthor: true },
    ];
    expect(spentOn("2026-11-24", comments, ["locus[bot]"])).toBe(0.75);
  });

  it("keeps one day's spend per status comment, starting afresh on a new UTC day", () => {
    const first = withDaySpend(EMPTY_STATE, new Date("2026-11-24T23:00:00Z"), 0.5);
    const same = withDaySpend(first, new Date("2026-11-24T23:59:00Z"), 0.25);
    expect(same.daySpend).toEqual({ day: "2026-11-24", usd: 0.75 });
    expect(withDaySpend(same, new Date("2026-11-25T00:01:00Z"), 0.1).daySpend).toEqual({
      day: "2026-11-25",
      usd: 0.1,
    });
  });

  it("counts this run's tasks, and says the cap and when it resets", () => {
    let now = new Date("2026-11-24T21:30:00Z");
    const budget = createDailyBudget({ capUsd: 2, spentBefore: 1.5, now: () => now });
    expect(budget.remaining()).toBe(0.5);
    budget.record(0.5);
    expect(budget.remaining()).toBe(0);
    expect(budget.refusal()).toContain("daily cost cap of $2.00");
    expect(budget.refusal()).toContain("$2.00 spent today (UTC)");
    expect(budget.refusal()).toContain("resets at 00:00 UTC, in 2 h 30 min");
    now = new Date("2026-11-25T00:10:00Z");
    expect(budget.remaining()).toBe(1.5);
  });
});
