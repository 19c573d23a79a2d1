import { describe, expect, it } from "vitest";
import { approvePlan, renderPlannedIssueBody } from "../../../lib/plan/approve-plan.ts";
import {
  readApproval,
  readPlanComment,
  renderApprovedPlanComment,
  renderPlanComment,
} from "../../../lib/plan/plan-comment.ts";
import { planSchema, type Plan } from "../../../lib/plan/plan-schema.ts";

const plan: Plan = planSchema.parse({
  sprint: "Auth",
  reasoning: "The model comes first; endpoints need it.",
  tasks: [
    { title: "User model", priority: "high", type: "feature", acceptanceCriteria: ["users table exists"] },
    { title: "Login endpoint --> now", dependsOn: [1], body: "POST /login" },
    { title: "Docs | README", type: "docs" },
  ],
});

describe("plan comment", () => {
  it("shows the table, the reasoning and the graph, and embeds the plan", () => {
    const body = renderPlanComment(plan);
    expect(body).toContain("| 1 | User model | high | feature | — |");
    expect(body).toContain("| 3 | Docs \\| README | medium | docs | — |");
    expect(body).toContain("### Why this order\n\nThe model comes first");
    expect(body).toContain("  T1 --> T2");
    expect(readPlanComment(body)).toEqual({ ok: true, plan });
  });

  it("says when a comment has no plan or a damaged one", () => {
    expect(readPlanComment("just text")).toEqual({ ok: false, message: "This comment holds no Locus plan." });
    const damaged = readPlanComment('<!-- locus:plan {"sprint":"x","tasks":[]} -->');
    expect(damaged.ok).toBe(false);
  });

  it("records an approval once and reads it back", () => {
    const body = renderPlanComment(plan);
    const once = renderApprovedPlanComment(body, [{ position: 1, issue: 40 }]);
    const twice = renderApprovedPlanComment(once, [
      { position: 1, issue: 40 },
      { position: 2, issue: 41 },
    ]);
    expect(readApproval(twice)).toEqual({ "1": 40, "2": 41 });
    expect(twice.match(/locus:plan-approved/g)).toHaveLength(1);
    expect(twice).toContain("**Approved:** created #40, #41.");
    expect(readPlanComment(twice)).toEqual({ ok: true, plan });
  });

  it("rejects a dependency on a task that does not exist", () => {
    const result = planSchema.safeParse({ sprint: "s", tasks: [{ title: "a", dependsOn: [2] }] });
    expect(result.success).toBe(false);
  });
});

describe("approving a plan", () => {
  it("creates issues in plan order with labels and order:N", () => {
    const result = approvePlan(plan);
    if (!result.ok) throw new Error(result.message);
    expect(result.milestone).toBe("Auth");
    expect(result.issues.map((issue) => [issue.position, issue.order, issue.labels])).toEqual([
      [1, 1, ["p:high", "type:feature", "order:1", "agent:managed"]],
      [2, 2, ["p:medium", "type:feature", "order:2", "agent:managed"]],
      [3, 3, ["p:medium", "type:docs", "order:3", "agent:managed"]],
    ]);
  });

  it("follows a confirmed sequence", () => {
    const result = approvePlan(plan, [3, 1, 2]);
    expect(result.ok && result.issues.map((issue) => [issue.position, issue.order])).toEqual([
      [3, 1],
      [1, 2],
      [2, 3],
    ]);
  });

  it("refuses sequences that are not a permutation or break a dependency", () => {
    expect(approvePlan(plan, [1, 2])).toEqual({
      ok: false,
      message: "The plan has 3 tasks: list each of 1…3 once, e.g. `/locus approve 1,2,3`.",
    });
    expect(approvePlan(plan, [1, 1, 2]).ok).toBe(false);
    expect(approvePlan(plan, [2, 1, 3])).toEqual({
      ok: false,
      message: "Task 2 (Login endpoint --> now) depends on task 1, which this order runs after it.",
    });
  });

  it("writes bodies with a findable marker, dependencies and acceptance criteria", () => {
    const result = approvePlan(plan);
    if (!result.ok) throw new Error(result.message);
    const [first, second] = result.issues;
    if (!first || !second) throw new Error("expected two issues");
    expect(renderPlannedIssueBody(first, 77, [])).toBe(
      "<!-- locus:planned comment=77 task=1 -->\n\n**Acceptance criteria**\n\n- [ ] users table exists\n\n" +
        "<sub>Complexity: medium. Planned by Locus.</sub>",
    );
    expect(renderPlannedIssueBody(second, 77, [40])).toContain("POST /login\n\n**Depends on:** #40");
  });
});
