/**
 * Mode `rebase`: a Locus PR's branch is rebased on its base, and the Locus
 * PRs stacked on it follow in order (each onto the new head of the one
 * below). Conflicts go to the agent with the conflicting hunks, both sides
 * and each commit's intent; Locus continues the rebase. A conflict it cannot
 * resolve leaves that branch untouched and a comment naming the files.
 *
 * The `command` input `after <sha>` restacks a PR whose lower PR merged: its
 * own commits are those after `<sha>` (the merged PR's head), and they go
 * onto its (retargeted) base, so a squash merge below leaves no duplicate.
 */
import { join } from "node:path";
import { isLocus } from "../../github/locus-identity.ts";
import { NO_USAGE } from "../../agent/usage.ts";
import { type PullRequest } from "../../github/index.ts";
import { issueOfBranch } from "../../naming/branches.ts";
import { buildTaskPrompt } from "../../prompt/task-prompt.ts";
import type { ActionContext } from "../../task/context.ts";
import { readLocusPullRequest } from "../../pull-request/locus-pull-request.ts";
import { commandTrigger } from "../../trust/command-trigger.ts";
import { commentAuthors, promptIssueAtTrigger } from "../../task/prompt-issue.ts";
import { commandActs } from "../../trust/trigger-act.ts";
import { readRepositoryContext, trustedCommit } from "../../task/repository-context.ts";
import { selfLogins } from "../../trust/self-logins.ts";
import { createWriters } from "../../trust/writers.ts";
import { restack, type RestackOutcome, type StackBranch } from "../../stack/restack.ts";
import { createConflictResolver } from "../../task/agent-conflict-resolver.ts";
import { startRestack } from "../../pull-request/pull-request-round.ts";
import { runFacts } from "../../task/task-read-context.ts";
import type { ModeResult } from "../../task/task-report.ts";
import { createEventRecorder } from "../../task/tool-cards.ts";

const MAX_STACK = 20;

/**
 * The PR and the Locus PRs stacked above it, lowest first. Only PRs Locus opened: a look-alike on a
 * `locus/issue-<N>` branch (a fork's, or anyone's) is never rebased and force-pushed.
 */
async function stackFrom(ctx: ActionContext, pr: PullRequest): Promise<StackBranch[]> {
  const chain: StackBranch[] = [{ pr: pr.number, branch: pr.head.ref }];
  const own = selfLogins(ctx);
  let branch = pr.head.ref;
  while (chain.length < MAX_STACK) {
    const above = (await ctx.gateway.stack.pullsOnto(branch)).find(
      (p) => issueOfBranch(p.head.ref) !== undefined && isLocus(own, p.author),
    );
    if (!above) break;
    chain.push({ pr: above.number, branch: above.head.ref });
    branch = above.head.ref;
  }
  return chain;
}

function describe(outcome: RestackOutcome, base: string): string {
  switch (outcome.kind) {
    case "rebased":
      return `Locus rebased this branch on \`${base}\`: ${outcome.from.slice(0, 7)} → ${outcome.to.slice(0, 7)}.`;
    case "unchanged":
      return `This branch is already up to date with \`${base}\`.`;
    case "conflict":
      return `Locus could not rebase this branch on \`${base}\`: the conflicts in ${outcome.files.map((f) => `\`${f}\``).join(", ")} could not be resolved, so the branch is as it was. Resolve them by hand, or comment \`/locus rebase\` to try again.`;
    case "push-rejected":
      return `Locus did not push the rebased branch: it moved while Locus worked, and Locus never overwrites commits it did not see. Comment \`/locus rebase\` to try again.`;
  }
}

export async function runRebaseMode(ctx: ActionContext, prNumber: number): Promise<ModeResult> {
  const { gateway, git } = ctx;
  const found = await readLocusPullRequest(ctx, prNumber, "Locus rebases only its own.");
  if (!found.ok) return found.result;
  const { read, issueNumber } = found;
  const { pr } = read;
  const { triggeredAt: runCreatedAt } = runFacts(ctx, read);
  const writers = createWriters(ctx);
  const after = /^after ([0-9a-f]{40})$/.exec(ctx.command.trim())?.[1];
  // A writer's `/locus rebase`; a restack Locus started when the PR below merged has no such act.
  const triggeredAt = await commandTrigger(
    ctx,
    after === undefined ? commandActs(read.comments, ["rebase"]) : [],
    { runCreatedAt, writers, target: `PR #${prNumber}` },
  );
  const issue = read.linkedIssue;
  // The linked issue leaves review while its branch is rebased (lifecycle `restack-started`).
  const restacking = issue
    ? await startRestack(ctx, issue, `Rebasing PR #${prNumber} on \`${pr.base.ref}\`.`)
    : undefined;

  await git.fetchBranches([pr.base.ref, pr.head.ref]);
  const baseRef = git.remoteRef(pr.base.ref);
  const headRef = git.remoteRef(pr.head.ref);
  const upstream = after ?? (await git.mergeBase(baseRef, headRef)) ?? baseRef;
  const onto = (await git.revParse(baseRef)) ?? baseRef;
  const chain = await stackFrom(ctx, pr);
  // Each PR above goes onto the branch of the PR below it.
  const baseOf = (entry: StackBranch): string =>
    chain[chain.findIndex((candidate) => candidate.pr === entry.pr) - 1]?.branch ?? pr.base.ref;
  const path = join(ctx.run.worktreeRoot, "locus-worktrees", `rebase-${prNumber}`);
  const worktree = await git.worktreeAdd(path, `locus/rebase-${prNumber}`, headRef);
  const recorder = createEventRecorder((line) => ctx.log.info(ctx.mask(line)));
  const prompt = issue
    ? buildTaskPrompt({
        repository: await readRepositoryContext(worktree, await trustedCommit(ctx)),
        issue: promptIssueAtTrigger(issue, triggeredAt, await writers.trustFor(commentAuthors(issue))),
      })
    : undefined;
  const resolver = prompt
    ? createConflictResolver(ctx, {
        worktree,
        prompt,
        recorder,
        writeStatus: (view) => restacking?.progress(view) ?? Promise.resolve(),
        budget: undefined,
      })
    : undefined;

  const outcomes = await restack(
    git,
    worktree,
    chain,
    { upstream, onto },
    async (stop) =>
      resolver?.resolve(stop, {
        what: `PR #${stop.entry.pr} (\`${stop.entry.branch}\`)`,
        onto: baseOf(stop.entry),
      }) ?? false,
  );
  const cost = resolver?.spent().costUsd ?? 0;

  for (const outcome of outcomes) {
    const base = baseOf(outcome.entry);
    await gateway.createComment(outcome.entry.pr, describe(outcome, base));
  }
  await git.worktreeRemove(path);
  const failed = outcomes.find((o) => o.kind === "conflict" || o.kind === "push-rejected");
  await restacking?.finish(
    failed ? `Rebasing PR #${failed.entry.pr} stopped; see its comment.` : `Rebased PR #${prNumber}.`,
    cost,
  );
  const report = {
    issue: issueNumber,
    title: pr.title,
    durationMs: 0,
    usage: NO_USAGE,
    costUsd: cost,
    cards: recorder.cards(),
  };
  return {
    tasks: [
      failed
        ? { ...report, status: "failed", reason: describe(failed, pr.base.ref) }
        : { ...report, status: "succeeded", pr: { number: prNumber, url: pr.url } },
    ],
  };
}
