/** A plan as the planning agent proposes it and the plan comment embeds it. */
import { z } from "zod";

const plannedTaskSchema = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().max(20_000).default(""),
  priority: z.enum(["critical", "high", "medium", "low"]).default("medium"),
  type: z.enum(["feature", "bug", "chore", "refactor", "docs"]).default("feature"),
  /** 1-based positions of the tasks this one needs first. */
  dependsOn: z.array(z.number().int().positive()).default([]),
  acceptanceCriteria: z.array(z.string().trim().min(1)).default([]),
  complexity: z.enum(["small", "medium", "large"]).default("medium"),
});

export const planSchema = z
  .object({
    sprint: z.string().trim().min(1).max(200),
    reasoning: z.string().default(""),
    tasks: z.array(plannedTaskSchema).min(1).max(50),
  })
  .superRefine((plan, ctx) => {
    plan.tasks.forEach((task, index) => {
      for (const dependency of task.dependsOn) {
        if (dependency > plan.tasks.length || dependency === index + 1) {
          ctx.addIssue({
            code: "custom",
            path: ["tasks", index, "dependsOn"],
            message: `task ${index + 1} depends on task ${dependency}, which is not another task of the plan`,
          });
        }
      }
    });
  });

export type PlannedTask = z.infer<typeof plannedTaskSchema>;
export type Plan = z.infer<typeof planSchema>;
