/**
 * The ports every mode receives. Nothing here reads the environment or the
 * Actions runtime: `action/run.ts` builds them, tests build their own.
 */
import type { AgentRunner } from "../agent/runner.ts";
import type { LocusIdentity } from "../github/locus-identity.ts";
import type { LocusConfig } from "../config/index.ts";
import type { GitHubGateway, Log } from "../github/index.ts";
import type { GitClient } from "../git/git-client.ts";
import type { TaskSetup } from "../setup/task-setup.ts";
import type { SessionRecordPublisher } from "../session-record/upload-record.ts";

export interface ActionLog extends Log {
  /** A collapsible log group (`core.group` on a runner). */
  group<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

export interface Clock {
  now(): Date;
}

export interface RunInfo {
  /** `GITHUB_RUN_ID`, used in delivery ids of work this run dispatches. */
  readonly id: string;
  /** Link to this workflow run, for status comments. */
  readonly url?: string;
  /** Where worktrees go (`RUNNER_TEMP`). */
  readonly worktreeRoot: string;
  /** Who started the run (`GITHUB_TRIGGERING_ACTOR` or `GITHUB_ACTOR`). */
  readonly actor: string;
  /** `https://<server>/<owner>/<repo>` (`GITHUB_SERVER_URL`): where permalinks point. */
  readonly repositoryUrl: string;
  /** The checkout's commit when the run started: the default branch at the trigger, where instructions come from. */
  readonly trustedCommit?: string;
  /** True when config turned the sandbox off: status comments and the job summary say so. */
  readonly unsandboxed?: boolean;
}

export interface ActionContext {
  readonly gateway: GitHubGateway;
  /** The checkout in `GITHUB_WORKSPACE`; worktrees are made from it. */
  readonly git: GitClient;
  readonly runner: AgentRunner;
  readonly clock: Clock;
  readonly log: ActionLog;
  readonly config: LocusConfig;
  /** Who Locus is in this run (its bot, learned from GitHub): what it wrote is not feedback. */
  readonly identity: LocusIdentity;
  readonly run: RunInfo;
  readonly model: string;
  /** True when a writer's `model=<id>` chose `model`: it must then be allowed by `agent.models`. */
  readonly modelChosen?: boolean;
  readonly maxTurns: number;
  /** Aborted on SIGINT/SIGTERM: running tasks stop and save their work. */
  readonly signal: AbortSignal;
  /** Replaces known secrets (and anything token-shaped) before text leaves the process. */
  readonly mask: (text: string) => string;
  readonly delivery: string;
  /** The `command` input: the iterate note, the plan goal or the question. */
  readonly command: string;
  /** A GitHub user's id (`GET /users/{login}`), for the noreply address a `Co-authored-by` trailer names. */
  readonly userId?: (login: string) => Promise<number>;
  /** What runs in a task's worktree before its agent (`setup.commands` or the lockfile's install); absent: nothing. */
  readonly setup?: TaskSetup;
  /** The run's session record: a delivered task uploads its part and links it; absent: nothing recorded. */
  readonly sessionRecord?: SessionRecordPublisher;
}

/** What running the agent needs of the context: the runner, its limits, the clock and the log. */
export type AgentRunContext = Pick<
  ActionContext,
  "clock" | "mask" | "log" | "runner" | "model" | "maxTurns" | "signal" | "config"
>;
