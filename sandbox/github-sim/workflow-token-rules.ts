/**
 * What GitHub refuses a job's `GITHUB_TOKEN` beyond its permissions:
 *
 * - creating a pull request, or approving one, unless the repository allows
 *   GitHub Actions to (off by default): 403 "GitHub Actions is not permitted
 *   to create or approve pull requests."
 *   https://docs.github.com/repositories/managing-your-repositorys-settings-and-features/enabling-features-for-your-repository/managing-github-actions-settings-for-a-repository#preventing-github-actions-from-creating-or-approving-pull-requests
 * - starting workflows: events the token causes (a push, a pull request it
 *   opens) create no workflow run, except `workflow_dispatch` and
 *   `repository_dispatch`; apps still receive their webhooks.
 *   https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#using-the-github_token-in-a-workflow
 */
import { HttpError } from "./http-error.ts";
import { ACTIONS_BOT } from "./model.ts";
import type { Issue, Repo, TokenRecord } from "./model.ts";
import { workflowSettings } from "./workflow-token.ts";

const PULLS_DOCS = "https://docs.github.com/rest/pulls/pulls#create-a-pull-request";

export const NOT_PERMITTED = "GitHub Actions is not permitted to create or approve pull requests.";

function createsOrApproves(method: string, template: string, body: unknown): boolean {
  if (method !== "POST") return false;
  if (template === "/repos/{owner}/{repo}/pulls") return true;
  if (template !== "/repos/{owner}/{repo}/pulls/{pull_number}/reviews") return false;
  return (body as { event?: unknown } | null | undefined)?.event === "APPROVE";
}

/** The 403 GitHub answers a job's token that creates or approves a pull request where that is not allowed. */
export function workflowTokenRefusal(
  repo: Repo,
  token: TokenRecord | null,
  request: { method: string; template: string; body: unknown },
): HttpError | null {
  if (token?.kind !== "workflow") return null;
  if (!createsOrApproves(request.method, request.template, request.body)) return null;
  if (workflowSettings(repo).canApprovePullRequestReviews) return null;
  return new HttpError(403, { message: NOT_PERMITTED, documentation_url: PULLS_DOCS, status: "403" });
}

// The commits a job's token pushed, per repository: their pushes start no workflow.
const quiet = new WeakMap<Repo, Set<string>>();

/** Records the commits a push with a job's token moved branches to. */
export function recordWorkflowTokenPush(repo: Repo, token: TokenRecord, shas: readonly string[]): void {
  if (token.kind !== "workflow") return;
  let pushed = quiet.get(repo);
  if (!pushed) {
    pushed = new Set();
    quiet.set(repo, pushed);
  }
  for (const sha of shas) pushed.add(sha);
}

/**
 * Whether a pull request's new head starts its `pull_request` workflows. The
 * first time CI sees the pull request, the event is `opened`, caused by its
 * author; after that a new head is a `synchronize`, caused by whoever pushed it.
 */
export function headStartsWorkflows(repo: Repo, pull: Issue, headSha: string, opened: boolean): boolean {
  if (opened) return pull.author !== ACTIONS_BOT;
  return !quiet.get(repo)?.has(headSha);
}
