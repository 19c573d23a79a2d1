/**
 * The agent as the resolver of a rebase's conflicts (rebase-resolving.ts):
 * each stop becomes a task showing the conflicting hunks, the commit being
 * replayed and what the new base brought. Mode `rebase` uses it for pull
 * requests, a task for saved work replayed onto a parent that moved; both get
 * the same prompt and the same "leave the markers when it cannot be done" rule.
 * It keeps what its runs cost and what the agent said or asked, so a caller
 * that gives up can tell people why.
 */
import type { RunnerPrompt, RunResult } from "../agent/runner.ts";
import { addUsage, NO_USAGE, type Usage } from "../agent/usage.ts";
import type { GitClient } from "../git/git-client.ts";
import { renderConflictTask } from "../prompt/rebase-conflict-prompt.ts";
import type { StatusView } from "../status/status-comment.ts";
import type { AgentRunContext } from "./context.ts";
import type { DailyBudget } from "../cost/daily-budget.ts";
import type { RebaseStop } from "../stack/rebase-resolving.ts";
import { runAgentLive } from "./run-agent-live.ts";
import type { EventRecorder } from "./tool-cards.ts";

export interface ConflictResolverOptions {
  readonly worktree: GitClient;
  /** Its system and context parts are kept; its task is replaced by the conflict. */
  readonly prompt: RunnerPrompt;
  /** Said after the conflict (a person's answer about it, say). */
  readonly notes?: string;
  readonly recorder: EventRecorder;
  readonly writeStatus: (view: StatusView) => Promise<unknown>;
  readonly budget: DailyBudget | undefined;
}

/** What is being rebased, for the agent: `PR #4 (\`locus/issue-4\`)`, and the branch it goes onto. */
export interface ConflictSubject {
  readonly what: string;
  readonly onto: string;
}

export interface ConflictResolver {
  /** Whether the agent finished; the caller still checks that no marker is left. */
  resolve(stop: RebaseStop, subject: ConflictSubject): Promise<boolean>;
  /** The cost and tokens of every run so far. */
  spent(): { readonly costUsd: number; readonly usage: Usage };
  /** The agent's last summary and every question it asked. */
  said(): { readonly summary: string; readonly questions: readonly string[] };
  /** The last run, to tell "could not reconcile them" from "did not get to" (a limit, the API). */
  lastRun(): RunResult | undefined;
}

export function createConflictResolver(
  ctx: AgentRunContext,
  options: ConflictResolverOptions,
): ConflictResolver {
  let costUsd = 0;
  let usage = NO_USAGE;
  let summary = "";
  const questions: string[] = [];
  let last: RunResult | undefined;
  return {
    async resolve(stop, subject) {
      const conflict = renderConflictTask({
        what: subject.what,
        onto: subject.onto,
        commit: stop.commit,
        baseCommits: await options.worktree.recentLogRange(`${stop.upstream}..${stop.onto}`, 20),
        files: stop.files,
      });
      const result = await runAgentLive(ctx, {
        title: `Agent: resolve the rebase conflict of ${subject.what}`,
        prompt: { ...options.prompt, task: [conflict, options.notes].filter(Boolean).join("\n\n") },
        cwd: options.worktree.cwd,
        recorder: options.recorder,
        writeStatus: options.writeStatus,
        budget: options.budget,
      });
      costUsd += result.costUsd;
      usage = addUsage(usage, result.usage);
      summary = result.summary;
      questions.push(...result.questions);
      last = result;
      return result.success;
    },
    spent: () => ({ costUsd, usage }),
    said: () => ({ summary, questions: [...questions] }),
    lastRun: () => last,
  };
}
