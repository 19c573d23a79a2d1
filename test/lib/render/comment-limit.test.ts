import { describe, expect, it } from "vitest";
import { fitBody } from "../../../lib/render/comment-limit.ts";
import { renderFittedPlanComment } from "../../../lib/plan/plan-fit.ts";
import { readPlanComment } from "../../../lib/plan/plan-comment.ts";
import { planSchema } from "../../../lib/plan/plan-schema.ts";

describe("fitBody", () => {
  it("returns text within the limit unchanged", () => {
    expect(fitBody("short", 100)).toBe("short");
  });

  it("cuts at a line boundary within the limit and says how much it left out", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const fitted = fitBody(text, 300);
    expect(fitted.length).toBeLessThanOrEqual(300);
    const lines = fitted.split("\n");
    expect(lines[0]).toBe("line 0");
    expect(lines.at(-1)).toMatch(/^\*\[… truncated: \d+ characters omitted to fit GitHub's limit\]\*$/);
    expect(text.startsWith(lines.slice(0, -2).join("\n"))).toBe(true);
  });

  it("closes a code fence the cut left open so the note stays outside it", () => {
    const text = `intro\n\`\`\`\`ts\n${"const x = 1;\n".repeat(100)}\`\`\`\``;
    const lines = fitBody(text, 400).split("\n");
    expect(lines.filter((line) => line === "````")).toHaveLength(1);
    expect(lines.indexOf("````")).toBeLessThan(lines.length - 1);
  });
});

describe("renderFittedPlanComment", () => {
  const plan = planSchema.parse({
    sprint: "Big",
    reasoning: "r".repeat(30_000),
    tasks: Array.from({ length: 10 }, (_, i) => ({ title: `Task ${i + 1}`, body: "b".repeat(15_000) })),
  });

  it("shortens bodies and reasoning so the comment fits with room for the approval, and keeps the JSON readable", () => {
    const body = renderFittedPlanComment(plan);
    expect(body.length).toBeLessThanOrEqual(65_536 - 2_000);
    const read = readPlanComment(body);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.plan.tasks.map((task) => task.title)).toEqual(plan.tasks.map((task) => task.title));
    expect(read.plan.tasks[0]?.body).toContain("characters omitted]*");
  });

  it("leaves a plan that fits as it is", () => {
    const small = planSchema.parse({ sprint: "S", tasks: [{ title: "One", body: "Do it." }] });
    expect(readPlanComment(renderFittedPlanComment(small))).toEqual({ ok: true, plan: small });
  });
});
