/** The one place that maps a parsed request to its mode, after the checks every mode shares. */
import type { ActionContext } from "../task/context.ts";
import { runAskMode } from "./modes/ask.ts";
import { runFixCiMode } from "./modes/fix-ci.ts";
import { runIssueMode } from "./modes/issue.ts";
import { runIterateMode } from "./modes/iterate.ts";
import { runPlanMode } from "./modes/plan.ts";
import { runRebaseMode } from "./modes/rebase.ts";
import { runReviewMode } from "./modes/review.ts";
import { runSprintMode } from "./modes/sprint.ts";
import { runStaleMode } from "./modes/stale.ts";
import { refuseUnpricedMode } from "../task/refuse-unpriced-mode.ts";
import type { ModeResult } from "../task/task-report.ts";
import type { ModeRequest } from "../dispatch/mode-request.ts";

export async function runMode(ctx: ActionContext, request: ModeRequest): Promise<ModeResult> {
  const refused = await refuseUnpricedMode(ctx, request);
  if (refused) return refused;
  switch (request.mode) {
    case "issue":
      return runIssueMode(ctx, request.issues);
    case "sprint":
      return runSprintMode(ctx, request.milestone);
    case "iterate":
      return runIterateMode(ctx, request.pr);
    case "review":
      return runReviewMode(ctx, request.pr);
    case "plan":
      return runPlanMode(ctx, request.issue);
    case "ask":
      return runAskMode(ctx, request);
    case "stale":
      return runStaleMode(ctx);
    case "fix-ci":
      return runFixCiMode(ctx, request.pr);
    case "rebase":
      return runRebaseMode(ctx, request.pr);
  }
}
