/**
 * Cheap checks on a payload alone, made before any GitHub call: most events
 * an installation sends are not for Locus (other labels, ordinary comments,
 * PRs of people), and those must cost nothing, not even the config read.
 */
import type { Context } from "probot";
import { parseCommand } from "../lib/commands/index.ts";
import { parseRunName } from "../lib/dispatch/dispatch-inputs.ts";
import { statusLabel } from "../lib/labels/schema.ts";
import { isStatusLabel } from "../lib/status-machine/status-machine.ts";
import { issueOfBranch } from "../lib/naming/branches.ts";
import { isActiveSprint } from "../lib/sprint/activation.ts";

/** `locus:queued` starts work; any other status label is checked for who set it (app/handlers/issues.ts). */
export function wantsLabel(context: Context<"issues.labeled">): boolean {
  const name = context.payload.label?.name;
  return name !== undefined && isStatusLabel(name);
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

/**
 * A PR on a `locus/issue-<N>` branch of this very repository, opened by a bot:
 * a fork's head lives in another repository, whatever its branch is called.
 * Whether the bot is Locus is checked once the config and Locus's identity are known.
 */
function isLocusBranchByBot(payload: {
  pull_request: { head: { ref: string; repo?: { full_name: string } | null }; user: { login: string } };
  repository: { full_name: string };
}): boolean {
  const { pull_request: pr, repository } = payload;
  return (
    issueOfBranch(pr.head.ref) !== undefined &&
    pr.head.repo?.full_name === repository.full_name &&
    pr.user.login.endsWith("[bot]")
  );
}

/** Merged or closed without merging: either way its issue's status changes, if Locus opened it. */
export function wantsClosedLocusPullRequest(context: Context<"pull_request.closed">): boolean {
  return isLocusBranchByBot(context.payload);
}

export function wantsLocusPullRequest(context: Context<"pull_request.opened">): boolean {
  return isLocusBranchByBot(context.payload);
}

export function wantsChangesRequested(context: Context<"pull_request_review.submitted">): boolean {
  return context.payload.review.state === "changes_requested";
}

/**
 * A run named like Locus's (whether it ran Locus's workflow file is checked against config, by its
 * path), or another workflow's failed run on a Locus branch. The payload's `display_title`, `path`,
 * `head_branch` and `conclusion` are described at
 * https://docs.github.com/webhooks/webhook-events-and-payloads#workflow_run.
 */
export function wantsLocusRun(context: Context<"workflow_run.completed">): boolean {
  const run = context.payload.workflow_run;
  if (parseRunName(run.display_title ?? "") !== undefined) return true;
  return run.conclusion === "failure" && issueOfBranch(run.head_branch ?? "") !== undefined;
}

/**
 * Another app's failed check suite on a Locus branch. GitHub Actions' own
 * suites are left out: their workflow_run event says the same, once
 * (the payload names the suite's app:
 * https://docs.github.com/webhooks/webhook-events-and-payloads#check_suite).
 */
export function wantsFailedCheckSuite(context: Context<"check_suite.completed">): boolean {
  const suite = context.payload.check_suite;
  return (
    suite.conclusion === "failure" &&
    suite.app.slug !== "github-actions" &&
    issueOfBranch(suite.head_branch ?? "") !== undefined
  );
}
