/**
 * A run GitHub stopped by refusing its token a permission says so where the
 * person who started it looks: on the issue or pull request it was started
 * for, with the permission's name and where to grant it (the error's message,
 * from GitHub's `x-accepted-github-permissions`). A refusal inside a task is
 * already in that task's failure comment; this is for one that ends the run
 * before or outside a task (its first read, say). Best effort: a token that
 * cannot comment either is only logged.
 * https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps
 */
import { isGitHubError, type GitHubGateway } from "../github/index.ts";
import { safeToPublish } from "../render/safe-text.ts";
import type { ActionLog } from "./context.ts";
import type { ModeRequest } from "../dispatch/mode-request.ts";

/** The issue or pull request a run was started for; none for a sprint's milestone or the stale sweep. */
function reportTarget(request: ModeRequest): number | undefined {
  switch (request.mode) {
    case "issue":
      return request.issues[0];
    case "plan":
      return request.issue;
    case "ask":
      return request.issue ?? request.pr;
    case "iterate":
    case "review":
    case "fix-ci":
    case "rebase":
      return request.pr;
    case "sprint":
    case "stale":
      return undefined;
  }
}

export async function reportPermissionRefusal(
  deps: { readonly gateway: GitHubGateway; readonly log: ActionLog; readonly mask: (text: string) => string },
  request: ModeRequest,
  error: unknown,
): Promise<void> {
  if (!isGitHubError(error) || !error.permissionRefused) return;
  const target = reportTarget(request);
  if (target === undefined) return;
  try {
    await deps.gateway.createComment(target, `**Locus stopped:** ${safeToPublish(deps.mask(error.message))}`);
  } catch (reportError) {
    const why = reportError instanceof Error ? reportError.message : String(reportError);
    deps.log.warn(deps.mask(`Could not report GitHub's refusal on #${target}: ${why}`));
  }
}
