import type { RequestContext } from "./core.ts";
import type { Issue, Repo } from "./model.ts";
import { ensureLabel, milestoneById } from "./store.ts";
import { emitRepoEvent, now } from "./route-helpers.ts";
import { issueJson, labelJson, milestoneJson } from "./serialize-issue.ts";
import { pullJson } from "./serialize-pull.ts";
import { branchSha } from "./git.ts";
import { recordIssueEvent } from "./issue-events.ts";

/** What an issue change needs of its request: the simulator and who acts (REST route or GraphQL mutation). */
export type ChangeContext = Pick<RequestContext, "core" | "actor">;

// Issue-level changes on a pull request are reported as pull_request events, as GitHub does.
export async function emitIssueEvent(
  ctx: ChangeContext,
  repo: Repo,
  issue: Issue,
  action: string,
  extras: Record<string, unknown> = {},
): Promise<void> {
  if (issue.pull) {
    const pull_request = await pullJson(ctx.core, repo, { ...issue, pull: issue.pull }, true);
    emitRepoEvent(ctx, repo, "pull_request", { action, number: issue.number, pull_request, ...extras });
    return;
  }
  emitRepoEvent(ctx, repo, "issues", { action, issue: issueJson(ctx.core, repo, issue), ...extras });
}

// Sets the issue's labels and sends labeled/unlabeled events for the difference.
export async function applyLabels(
  ctx: ChangeContext,
  repo: Repo,
  issue: Issue,
  names: string[],
): Promise<void> {
  const before = new Set(issue.labelIds);
  const next: number[] = [];
  for (const name of names) {
    const label = ensureLabel(ctx.core.store, repo, name);
    if (!next.includes(label.id)) next.push(label.id);
  }
  const added = next.filter((id) => !before.has(id));
  const removed = issue.labelIds.filter((id) => !next.includes(id));
  if (added.length === 0 && removed.length === 0) return;
  issue.labelIds = next;
  issue.updatedAt = now(ctx);
  for (const id of removed) {
    const label = repo.labels.find((candidate) => candidate.id === id);
    if (!label) continue;
    recordIssueEvent(ctx, issue, { kind: "unlabeled", label: label.name });
    await emitIssueEvent(ctx, repo, issue, "unlabeled", { label: labelJson(ctx.core, repo, label) });
  }
  for (const id of added) {
    const label = repo.labels.find((candidate) => candidate.id === id);
    if (!label) continue;
    recordIssueEvent(ctx, issue, { kind: "labeled", label: label.name });
    await emitIssueEvent(ctx, repo, issue, "labeled", { label: labelJson(ctx.core, repo, label) });
  }
}

// Moves the issue to another milestone (or none) with demilestoned/milestoned events.
export async function applyMilestone(
  ctx: ChangeContext,
  repo: Repo,
  issue: Issue,
  milestoneId: number | null,
): Promise<void> {
  if (issue.milestoneId === milestoneId) return;
  const previous = milestoneById(repo, issue.milestoneId);
  issue.milestoneId = milestoneId;
  issue.updatedAt = now(ctx);
  if (previous) {
    recordIssueEvent(ctx, issue, { kind: "demilestoned", milestoneTitle: previous.title });
    await emitIssueEvent(ctx, repo, issue, "demilestoned", {
      milestone: milestoneJson(ctx.core, repo, previous),
    });
  }
  const next = milestoneById(repo, milestoneId);
  if (next) {
    recordIssueEvent(ctx, issue, { kind: "milestoned", milestoneTitle: next.title });
    await emitIssueEvent(ctx, repo, issue, "milestoned", { milestone: milestoneJson(ctx.core, repo, next) });
  }
}

export async function applyState(
  ctx: ChangeContext,
  repo: Repo,
  issue: Issue,
  state: "open" | "closed",
  reason: Issue["stateReason"],
): Promise<void> {
  if (issue.state === state) return;
  const at = now(ctx);
  issue.state = state;
  issue.updatedAt = at;
  if (state === "closed") {
    issue.closedAt = at;
    issue.closedBy = ctx.actor?.user.login ?? null;
    issue.stateReason = issue.pull ? null : (reason ?? "completed");
    if (issue.pull && !issue.pull.merged) issue.pull.headShaAtClose = await pullHead(repo, issue);
  } else {
    issue.closedAt = null;
    issue.closedBy = null;
    issue.stateReason = issue.pull ? null : "reopened";
  }
  await emitIssueEvent(ctx, repo, issue, state === "closed" ? "closed" : "reopened");
}

async function pullHead(repo: Repo, issue: Issue): Promise<string | null> {
  return issue.pull ? branchSha(repo.gitDir, issue.pull.head) : null;
}
