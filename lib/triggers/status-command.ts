/**
 * `/locus status`: the repository at a glance (active sprints, running,
 * queued, waiting and failed tasks, open Locus pull requests, the API budget), first
 * saying where the issue it was posted on stands. One GraphQL read.
 */
import { MANAGED_LABEL, STATUSES, statusLabel, type Status } from "../labels/schema.ts";
import { isCompleted } from "../status-machine/status-machine.ts";
import { renderRepositoryStatus } from "../render/repository-status.ts";
import { summarizeRepository } from "../status/repository-summary.ts";
import type { AppContext } from "../app/app-context.ts";

const LISTED: readonly Status[] = ["queued", "in-progress", "waiting", "failed", "in-review"];

export async function statusCommand(ctx: AppContext, target: { number: number }): Promise<string> {
  const read = await ctx.gateway.readRepositoryStatus({
    about: target.number,
    statusLabels: STATUSES.map(statusLabel),
    activeLabels: LISTED.map(statusLabel),
    completedLabels: STATUSES.filter(isCompleted).map(statusLabel),
    managedLabel: MANAGED_LABEL,
  });
  const { owner, repo } = ctx.gateway.repo;
  return renderRepositoryStatus(
    summarizeRepository(read, {
      repository: `${owner}/${repo}`,
      selfLogins: ctx.selfLogins,
      about: target.number,
      now: ctx.now(),
    }),
  );
}
