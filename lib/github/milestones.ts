import { milestoneSchema } from "./schemas.ts";
import type { Transport } from "./transport.ts";
import type { GitHubGateway, MilestonePatch } from "./types.ts";

type MilestoneOps = Pick<
  GitHubGateway,
  "listMilestones" | "getMilestone" | "createMilestone" | "updateMilestone"
>;

function body(m: MilestonePatch): Record<string, unknown> {
  return {
    ...(m.title === undefined ? {} : { title: m.title }),
    ...(m.description === undefined ? {} : { description: m.description }),
    ...(m.state === undefined ? {} : { state: m.state }),
    ...(m.dueOn === undefined ? {} : { due_on: m.dueOn }),
  };
}

export function milestoneOps(t: Transport): MilestoneOps {
  return {
    listMilestones(opts = {}) {
      return t.restPages(
        "GET /repos/{owner}/{repo}/milestones",
        { state: opts.state ?? "open" },
        milestoneSchema,
      );
    },
    getMilestone(milestone) {
      return t.restOrNull(
        "GET /repos/{owner}/{repo}/milestones/{milestone_number}",
        { milestone_number: milestone },
        milestoneSchema,
      );
    },
    createMilestone(milestone) {
      return t.rest("POST /repos/{owner}/{repo}/milestones", body(milestone), milestoneSchema);
    },
    updateMilestone(milestone, patch) {
      return t.rest(
        "PATCH /repos/{owner}/{repo}/milestones/{milestone_number}",
        { milestone_number: milestone, ...body(patch) },
        milestoneSchema,
      );
    },
  };
}
