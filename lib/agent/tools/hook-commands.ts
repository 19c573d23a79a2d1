/**
 * The one way a configured hook's command runs, for edit and command hooks alike: in the worktree,
 * in the run's sandbox, with the scrubbed environment and the shell policy's timeout, like the
 * agent's own commands. Hooks come from the repository's config, not from the model, so the shell
 * policy does not judge them. Each hook's command, status and (head-and-tail bounded) output are
 * collected into one report for the tool result.
 */
import type { AgentHook, ToolContext } from "../tool.ts";
import { scrubEnvironment } from "../../sandbox/environment.ts";
import { runProcess } from "./process.ts";

export interface HookRun {
  /** Each hook's command, exit code and output, ready to append to a tool result; `""` when none ran. */
  readonly report: string;
  /** A hook failed to start, timed out or exited non-zero. */
  readonly failed: boolean;
}

/** Runs `commands` in order (all of them, even after a failure) and reports each. */
export async function runHookCommands(
  when: AgentHook["when"],
  commands: readonly string[],
  context: ToolContext,
): Promise<HookRun> {
  const sections: string[] = [];
  let failed = false;
  for (const command of commands) {
    const outcome = await runProcess({
      command,
      cwd: context.cwd,
      env: scrubEnvironment(context.env),
      timeoutMs: context.shell.timeoutSeconds * 1000,
      signal: context.signal,
      ...(context.sandbox ? { sandbox: context.sandbox } : {}),
    });
    const status = outcome.spawnError ?? (outcome.timedOut ? "timed out" : `exit ${outcome.exitCode}`);
    if (outcome.spawnError !== undefined || outcome.timedOut || outcome.exitCode !== 0) failed = true;
    const output = outcome.output.trimEnd();
    sections.push(`${when} hook \`${command}\` → ${status}${output === "" ? "" : `\n${output}`}`);
  }
  return { report: sections.join("\n\n"), failed };
}

/** Single quotes keep every character literal; a single quote itself is closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
