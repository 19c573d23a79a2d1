/**
 * `/locus approve [2,1,3]`: create the planned issues from the plan comment's
 * embedded JSON. Idempotent: issues carry a marker naming the plan comment and
 * task, so an approve repeated after a crash or twice by hand creates nothing
 * twice.
 */
import { type Comment } from "../github/index.ts";
import { isLocus } from "../github/locus-identity.ts";
import { orderLabel } from "../labels/schema.ts";
import {
  approvePlan,
  ordersAfter,
  plannedByMarker,
  plannedIssueMarker,
  renderPlannedIssueBody,
} from "../plan/approve-plan.ts";
import { nextOrder } from "../sprint/order.ts";
import { readPlanComment, renderApprovedPlanComment } from "../plan/plan-comment.ts";
import type { AppContext } from "../app/app-context.ts";
import { code, paragraph, plain, root, strong } from "../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../render/tree/serialize.ts";

export async function approvePlanCommand(
  ctx: AppContext,
  issue: number,
  sequence: readonly number[] | undefined,
): Promise<string> {
  const comments = await ctx.gateway.listIssueComments(issue);
  const planComment = [...comments]
    .reverse()
    .find((comment: Comment) => isLocus(ctx.selfLogins, comment.author) && readPlanComment(comment.body).ok);
  if (!planComment)
    return "There is no Locus plan in this thread to approve. Comment `/locus plan <goal>` first.";
  const read = readPlanComment(planComment.body);
  if (!read.ok) return read.message;
  const approval = approvePlan(read.plan, sequence);
  if (!approval.ok) return approval.message;

  const milestones = await ctx.gateway.listMilestones({ state: "all" });
  const milestone =
    milestones.find((m) => m.title === approval.milestone) ??
    (await ctx.gateway.createMilestone({ title: approval.milestone }));
  const existing = (await ctx.gateway.listMilestoneIssues(milestone.number)) ?? [];
  // Orders continue after the highest of the issues already there (this plan's own, from an earlier approve, aside).
  const others = existing.filter((candidate) => !candidate.body.includes(plannedByMarker(planComment.id)));
  const issues = ordersAfter(approval.issues, nextOrder(others) - 1);

  const created: Array<{ position: number; issue: number }> = [];
  const numberOf = new Map<number, number>();
  for (const entry of issues) {
    const marker = plannedIssueMarker(planComment.id, entry.position);
    const found = existing.find((candidate) => candidate.body.includes(marker));
    let number = found?.number;
    if (number === undefined) {
      await ctx.gateway.createLabel(orderLabel(entry.order));
      const dependencies = entry.task.dependsOn
        .map((position) => numberOf.get(position))
        .filter((n) => n !== undefined);
      const body = renderPlannedIssueBody(entry, planComment.id, dependencies);
      const issueCreated = await ctx.gateway.createIssue({
        title: entry.task.title,
        body,
        labels: entry.labels,
        milestone: milestone.number,
      });
      number = issueCreated.number;
    }
    numberOf.set(entry.position, number);
    created.push({ position: entry.position, issue: number });
  }
  await ctx.gateway.updateComment(planComment.id, renderApprovedPlanComment(planComment.body, created));
  const list = created.map((entry) => `#${entry.issue}`).join(", ");
  // The milestone's title is the plan's (a model's words): text in a tree, so it can neither ping nor close.
  return toGitHubMarkdown(
    root(
      paragraph(
        `Created ${list} in milestone `,
        strong(plain(milestone.title)),
        ", in that order. Add a line ",
        code("locus: active"),
        " to the milestone's description to start the sprint, or label an issue ",
        code("locus:queued"),
        ".",
      ),
    ),
  );
}
