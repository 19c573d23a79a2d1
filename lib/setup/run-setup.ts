/**
 * Runs the setup's commands one after another in the worktree, inside the sandbox the caller
 * made for setup (its egress is the agent's plus `setup.network.allow`, and it is closed before
 * the agent's own sandbox starts, so the agent never gets those hosts). The first command that
 * fails stops the setup: what the task reports is that command and the tail of its output.
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import { setupCacheEnvironment } from "./setup-cache.ts";

/** The output a failure reports: the end of it, where an install says what went wrong. */
export const SETUP_LOG_TAIL_BYTES = 4000;

export type SetupOutcome =
  | { readonly ok: true; readonly ran: readonly string[] }
  | {
      readonly ok: false;
      readonly ran: readonly string[];
      readonly command: string;
      readonly exitCode: number;
      readonly timedOut: boolean;
      readonly logTail: string;
    };

export interface RunSetupOptions {
  readonly sandbox: Pick<Sandbox, "exec">;
  readonly commands: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** The download cache kept between runs (setup-cache.ts): writable here, and only here. */
  readonly cacheDir?: string;
}

export async function runSetup(options: RunSetupOptions): Promise<SetupOutcome> {
  const ran: string[] = [];
  const cacheEnv = options.cacheDir === undefined ? {} : setupCacheEnvironment(options.cacheDir);
  const wrap = {
    cwd: options.cwd,
    env: { ...options.env, ...cacheEnv },
    ...(options.cacheDir === undefined ? {} : { writable: [options.cacheDir], keep: Object.keys(cacheEnv) }),
  };
  for (const command of options.commands) {
    const chunks: Buffer[] = [];
    const outcome = await options.sandbox.exec(
      {
        file: "sh",
        args: ["-c", command],
        timeoutMs: options.timeoutMs,
        headBytes: 0,
        tailBytes: SETUP_LOG_TAIL_BYTES,
        onOutput: (_stream, chunk) => chunks.push(chunk),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      wrap,
    );
    if (outcome.exitCode !== 0 || outcome.timedOut || outcome.spawnError !== undefined) {
      const output = Buffer.concat(chunks).toString("utf8");
      return {
        ok: false,
        ran,
        command,
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        logTail: (outcome.spawnError ?? output).slice(-SETUP_LOG_TAIL_BYTES),
      };
    }
    ran.push(command);
  }
  return { ok: true, ran };
}
