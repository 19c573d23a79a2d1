import { milestoneSchema } from "./schemas.ts";
import type { Transport } from "./transport-types.ts";
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
      return t.create({
        what: `milestone "${milestone.title}"`,
        send: (once) => once.rest("POST /repos/{owner}/{repo}/milestones", body(milestone), milestoneSchema),
        // Titles are unique in a repository: a milestone of that title is the one asked for.
        async landed() {
          const all = await t.restPages(
            "GET /repos/{owner}/{repo}/milestones",
            { state: "all" },
            milestoneSchema,
          );
          return all.find((m) => m.title === milestone.title) ?? null;
        },
      });
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
