/**
 * Opens the task's pull request, or updates it when a retry finds one already
 * open for the branch. Only a branch that was on GitHub before this attempt
 * can have a pull request (GitHub closes one whose head branch is deleted),
 * so a first attempt looks nothing up. A new pull request's label is left
 * to the caller, to go out with the issue's labels and the status comment's
 * edit in one request.
 */
import type { RunResult } from "../agent/runner.ts";
import type { FileStat } from "../git/git-client.ts";
import type { Issue, IssuePort, LabelWrites, MomentWrite, PullRequestPort } from "../github/index.ts";
import { MANAGED_LABEL } from "../labels/schema.ts";
import { pullRequestTitle } from "../naming/commit.ts";
import { renderPullRequestBody } from "../render/pull-request-body.ts";
import type { PreReviewChecks } from "../render/pre-review-checks.ts";
import type { ActionContext } from "./context.ts";

export interface DeliveryInput {
  readonly issue: Issue;
  readonly branch: string;
  readonly prBase: string;
  readonly result: RunResult;
  readonly files: readonly FileStat[];
  readonly stackedOn?: number;
  readonly checks?: PreReviewChecks;
  /** Whether the branch was on GitHub before this attempt pushed it. */
  readonly branchExisted: boolean;
}

export interface DeliveredPullRequest {
  readonly number: number;
  readonly url: string;
  /** The artifact page of the task's session record, when it was uploaded. */
  readonly recordUrl?: string;
  /** The label set still owed to a pull request just opened (GitHub's create call takes no labels). */
  readonly labelWrite?: MomentWrite;
}

/** What delivering needs of GitHub: find or open the pull request, and keep Locus's label on it. */
type DeliveryPorts = Pick<
  PullRequestPort,
  "findPullRequestByHead" | "updatePullRequest" | "createPullRequest"
> &
  Pick<IssuePort, "getIssue"> &
  Pick<LabelWrites, "setLabels">;

export async function deliverPullRequest(
  ctx: Pick<ActionContext, "mask" | "model" | "run" | "config" | "sessionRecord"> & {
    readonly gateway: DeliveryPorts;
  },
  input: DeliveryInput,
): Promise<DeliveredPullRequest> {
  const { gateway } = ctx;
  const { result } = input;
  // The task's part of the session record, uploaded now so the PR and the status comment can link it.
  const record = await ctx.sessionRecord?.publish(`issue-${input.issue.number}`);
  const recordUrl = record?.ok ? record.url : undefined;
  const linked = recordUrl === undefined ? {} : { recordUrl };
  const body = ctx.mask(
    renderPullRequestBody({
      issue: input.issue.number,
      summary: result.summary,
      filesChanged: input.files,
      toolCalls: result.toolCalls,
      costUsd: result.costUsd,
      usage: result.usage,
      model: ctx.model,
      ...(input.stackedOn === undefined ? {} : { stackedOn: input.stackedOn }),
      ...(ctx.run.url ? { runUrl: ctx.run.url } : {}),
      ...linked,
      ...(input.checks ? { checks: input.checks } : {}),
    }),
  );
  const title = pullRequestTitle(input.issue);
  const existing = input.branchExisted
    ? await gateway.findPullRequestByHead(input.branch, { state: "open" })
    : null;
  if (existing) {
    const updated = await gateway.updatePullRequest(existing.number, { title, body, base: input.prBase });
    const labels = (await gateway.getIssue(existing.number))?.labels ?? [];
    if (!labels.includes(MANAGED_LABEL)) await gateway.setLabels(existing.number, [...labels, MANAGED_LABEL]);
    return { number: updated.number, url: updated.url, ...linked };
  }
  const created = await gateway.createPullRequest({
    title,
    body,
    head: input.branch,
    base: input.prBase,
    draft: ctx.config.pr.draft,
  });
  return {
    number: created.number,
    url: created.url,
    ...linked,
    labelWrite: {
      kind: "labels",
      number: created.number,
      nodeId: created.nodeId,
      pullRequest: true,
      labels: [MANAGED_LABEL],
    },
  };
}
