/**
 * A plan comment must fit GitHub's comment limit with room left for the
 * approval record `/locus approve` appends, and its JSON must stay whole (a
 * cut JSON cannot be approved). So the plan itself is shortened — task bodies
 * and the reasoning, longest first, each cut marked — rather than the comment.
 */
import type { Plan } from "./plan-schema.ts";
import { renderPlanComment } from "./plan-comment.ts";
import { GITHUB_BODY_LIMIT } from "../render/comment-limit.ts";

/** What `/locus approve` appends: issue links and their JSON record. */
const APPROVAL_ROOM = 2_000;
const MIN_TEXT = 200;

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max).trimEnd()}\n\n*[… cut to fit the plan comment: ${text.length - max} characters omitted]*`;
}

export function renderFittedPlanComment(plan: Plan, limit = GITHUB_BODY_LIMIT - APPROVAL_ROOM): string {
  let max = Math.max(plan.reasoning.length, ...plan.tasks.map((task) => task.body.length));
  let fitted = plan;
  let body = renderPlanComment(fitted);
  while (body.length > limit && max > MIN_TEXT) {
    max = Math.max(MIN_TEXT, Math.floor(max / 2));
    const bound = max;
    fitted = {
      ...plan,
      reasoning: cut(plan.reasoning, bound),
      tasks: plan.tasks.map((task) => ({ ...task, body: cut(task.body, bound) })),
    };
    body = renderPlanComment(fitted);
  }
  return body;
}
