/**
 * When a stacked Locus PR merges (merge, squash or rebase), the Locus PR
 * based on its branch is retargeted to the merged PR's base, and a rebase run
 * replays only that PR's own commits (those after the merged head) onto it;
 * the run then restacks the PRs above in turn. Config `pr.restackOnMerge`.
 */
import { type PullRequest } from "../github/index.ts";
import { isLocus } from "../github/locus-identity.ts";
import { issueOfBranch } from "../naming/branches.ts";
import type { AppContext } from "../app/app-context.ts";
import { dispatchOnce } from "../app/dispatch-once.ts";

export async function restackAbove(
  ctx: AppContext,
  merged: Pick<PullRequest, "number" | "head"> & { base?: PullRequest["base"] },
): Promise<boolean> {
  if (!ctx.config.pr.restackOnMerge || !merged.base) return false;
  const above = (await ctx.gateway.stack.pullsOnto(merged.head.ref)).find(
    (pr) => isLocus(ctx.selfLogins, pr.author) && issueOfBranch(pr.head.ref) !== undefined,
  );
  const issue = above ? issueOfBranch(above.head.ref) : undefined;
  if (!above || issue === undefined) return false;
  await ctx.gateway.updatePullRequest(above.number, { base: merged.base.ref });
  await dispatchOnce(
    ctx,
    { mode: "rebase", pr: above.number, command: `after ${merged.head.sha}` },
    issue,
    `PR #${merged.number} below merged: restacking PR #${above.number} onto \`${merged.base.ref}\`…`,
  );
  return true;
}
