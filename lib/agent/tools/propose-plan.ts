/**
 * `propose_plan` (plan mode only): its input schema is the plan itself, so the
 * model's proposal is validated like any tool input and an invalid one comes
 * back as an error it can fix. The last valid proposal is the plan.
 */
import { planSchema, type Plan } from "../../plan/plan-schema.ts";
import type { AgentTool } from "../tool.ts";

export function createProposePlanTool(onPlan: (plan: Plan) => void): AgentTool<typeof planSchema> {
  return {
    name: "propose_plan",
    description: [
      "Propose the plan: a suggested sprint (milestone) name, the reasoning behind the execution order,",
      "and the tasks in execution order. Each task becomes a GitHub issue; dependsOn lists the 1-based",
      "positions of the tasks it needs first, which must come earlier in the list. Call it once, when",
      "you have studied the repository enough, then call finish.",
    ].join(" "),
    inputSchema: planSchema,
    readOnly: true,
    run(input) {
      onPlan(input);
      return Promise.resolve({
        content: `Plan recorded: ${input.tasks.length} tasks for "${input.sprint}". Call finish now with a one-line summary.`,
        isError: false,
        summary: `Proposed ${input.tasks.length} tasks`,
      });
    },
  };
}
