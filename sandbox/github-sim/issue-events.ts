import type { RequestContext } from "./core.ts";
import type { Issue, IssueChange } from "./model.ts";
import { now } from "./route-helpers.ts";

/**
 * Records a timeline event on the issue, as GitHub does for every label,
 * milestone and title change whoever makes it (the actor is the request's user;
 * a request without one, as seeding can be, is the issue's author).
 * https://docs.github.com/en/rest/using-the-rest-api/issue-event-types
 */
export function recordIssueEvent(
  ctx: Pick<RequestContext, "core" | "actor">,
  issue: Issue,
  change: IssueChange,
): void {
  const actor = ctx.actor?.user.login ?? issue.author;
  (issue.events ??= []).push({ ...change, actor, createdAt: now(ctx) });
}
