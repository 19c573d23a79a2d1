/**
 * Cheap checks on a payload alone, made before any GitHub call: most events
 * an installation sends are not for Locus (other labels, ordinary comments,
 * PRs of people), and those must cost nothing, not even the config read.
 */
import type { Context } from "probot";
import { parseCommand } from "../lib/commands/index.ts";
import { parseRunName } from "../lib/dispatch/dispatch-inputs.ts";
import { statusLabel } from "../lib/labels/schema.ts";
import { issueOfBranch } from "../lib/naming/branches.ts";
import { isActiveSprint } from "../lib/sprint/activation.ts";

export function wantsLabel(context: Context<"issues.labeled">): boolean {
  return context.payload.label?.name === statusLabel("queued");
}

/** Only a description that becomes active starts a sprint; other edits are ignored. */
export function wantsMilestone(context: Context<"milestone.created"> | Context<"milestone.edited">): boolean {
  const { payload } = context;
  if (!isActiveSprint(payload.milestone.description)) return false;
  if (payload.action === "created") return true;
  const previous = payload.changes.description?.from;
  return previous !== undefined && !isActiveSprint(previous);
}

/**
 * A comment is for Locus when the parser reads a command (or a malformed one)
 * from it, or when it is on an issue waiting for an answer (any writer's
 * comment there answers). A `/locus` in prose, code or a quote elsewhere —
 * Locus's own replies name commands that way — costs nothing. The parser is
 * pure and linear.
 */
export function wantsComment(context: Context<"issue_comment.created">): boolean {
  const { comment, issue } = context.payload;
  if (parseCommand(comment.body).kind !== "none") return true;
  return (issue.labels ?? []).some((label) => label.name === statusLabel("waiting"));
}

/** Merged or closed without merging: either way its issue's status changes. */
export function wantsClosedLocusPullRequest(context: Context<"pull_request.closed">): boolean {
  return issueOfBranch(context.payload.pull_request.head.ref) !== undefined;
}

export function wantsLocusPullRequest(context: Context<"pull_request.opened">): boolean {
  return issueOfBranch(context.payload.pull_request.head.ref) !== undefined;
}

export function wantsChangesRequested(context: Context<"pull_request_review.submitted">): boolean {
  return context.payload.review.state === "changes_requested";
}

export function wantsLocusRun(context: Context<"workflow_run.completed">): boolean {
  return parseRunName(context.payload.workflow_run.display_title ?? "") !== undefined;
}
