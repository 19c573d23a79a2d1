import { assertRefName } from "../git/ref-names.ts";
import type { ActionContext } from "./context.ts";

/** Where tasks start and PRs land: config `baseBranch`, else the repository's default branch. */
export async function baseBranchOf(ctx: ActionContext): Promise<string> {
  return assertRefName(ctx.config.baseBranch ?? (await ctx.gateway.getDefaultBranch()));
}
