/**
 * What GitHub does to open pull requests whose base branch is deleted: when
 * the branch was the head of a merged pull request, they are retargeted to
 * that pull request's base; otherwise they are closed
 * (https://docs.github.com/pull-requests/collaborating-with-pull-requests/proposing-changes-to-your-work-with-pull-requests/changing-the-base-branch-of-a-pull-request).
 * Each retarget is announced as `pull_request.edited` with `changes.base`.
 */
import type { RequestContext } from "./core.ts";
import { applyState } from "./issue-mutations.ts";
import type { Repo } from "./model.ts";
import { emitRepoEvent, now } from "./route-helpers.ts";
import { pullJson } from "./serialize-pull.ts";

export async function onBranchDeleted(
  ctx: RequestContext,
  repo: Repo,
  branch: string,
  sha: string,
): Promise<void> {
  const merged = [...repo.issues.values()]
    .filter((issue) => issue.pull?.merged && issue.pull.head === branch)
    .sort((a, b) => (b.pull?.mergedAt ?? "").localeCompare(a.pull?.mergedAt ?? ""))[0];
  const stacked = [...repo.issues.values()].filter(
    (issue) => issue.state === "open" && issue.pull?.base === branch,
  );
  for (const issue of stacked) {
    if (!issue.pull) continue;
    if (!merged?.pull) {
      await applyState(ctx, repo, issue, "closed", null);
      continue;
    }
    const previous = issue.pull.base;
    issue.pull.base = merged.pull.base;
    issue.updatedAt = now(ctx);
    emitRepoEvent(ctx, repo, "pull_request", {
      action: "edited",
      number: issue.number,
      changes: { base: { ref: { from: previous }, sha: { from: sha } } },
      pull_request: await pullJson(ctx.core, repo, { ...issue, pull: issue.pull }, true),
    });
  }
}
