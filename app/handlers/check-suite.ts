/** check_suite.completed: another app's CI failed on a Locus PR's head; it may start a fix-ci round. */
import type { Context } from "probot";
import type { AppContext } from "../../lib/app/app-context.ts";
import { onCiFailure } from "../../lib/triggers/ci-failure-events.ts";

export async function onCheckSuite(
  ctx: AppContext,
  context: Context<"check_suite.completed">,
): Promise<void> {
  const suite = context.payload.check_suite;
  const outcome = await onCiFailure(ctx, {
    source: { kind: "suite", id: suite.id },
    conclusion: suite.conclusion,
    headSha: suite.head_sha,
    headBranch: suite.head_branch,
    headAuthorEmail: suite.head_commit.author.email ?? null,
  });
  ctx.log.info(
    `check suite ${suite.id} ${suite.conclusion ?? ""} on ${suite.head_branch ?? "?"}: ${outcome}`,
  );
}
