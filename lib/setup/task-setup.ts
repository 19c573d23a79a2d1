/**
 * The setup a task runs before its agent, bound to one run: the plan (what runs and where it came
 * from) and a way to run it in a sandbox of its own, whose egress is the agent's plus the plan's
 * hosts. That sandbox is closed as soon as setup ends, before the agent starts, so the agent's
 * commands never reach the setup's hosts.
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import { runSetup, type SetupOutcome } from "./run-setup.ts";
import type { SetupPlan } from "./setup-plan.ts";

/** How long one setup command may run: an install of a large project, not a hung one. */
const SETUP_COMMAND_TIMEOUT_MS = 15 * 60_000;

export interface TaskSetup {
  readonly plan: SetupPlan;
  /** Runs the plan's commands in the worktree at `cwd`; nothing when the plan has none. */
  run(cwd: string, signal?: AbortSignal): Promise<SetupOutcome>;
}

export interface TaskSetupOptions {
  readonly plan: SetupPlan;
  /** A sandbox like the agent's with `extraAllow` added to its egress; closed after setup. */
  readonly openSandbox: (extraAllow: readonly string[]) => Promise<Pick<Sandbox, "exec" | "close">>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
  /** The download cache kept between runs (the Action's `setup-cache` input), if the workflow keeps one. */
  readonly cacheDir?: string;
}

export function createTaskSetup(options: TaskSetupOptions): TaskSetup {
  const { plan } = options;
  return {
    plan,
    async run(cwd, signal) {
      if (plan.commands.length === 0) return { ok: true, ran: [] };
      const sandbox = await options.openSandbox(plan.networkAllow);
      try {
        return await runSetup({
          sandbox,
          commands: plan.commands,
          cwd,
          env: options.env,
          timeoutMs: options.timeoutMs ?? SETUP_COMMAND_TIMEOUT_MS,
          ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
          ...(signal ? { signal } : {}),
        });
      } finally {
        await sandbox.close();
      }
    },
  };
}
