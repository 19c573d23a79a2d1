/**
 * `run_shell`: one `bash -c` command in the worktree, under the configured allow/deny policy,
 * with a scrubbed environment, a timeout and bounded output; the configured command hooks run
 * around it (a failing before-command hook refuses it).
 *
 * The command's output is returned to the loop as data and never written to our stdout: in a
 * GitHub Actions job, a printed `::add-mask::`, `::stop-commands::` or `::set-output` line would
 * be executed by the runner. Nothing here logs the output.
 */
import { z } from "zod";
import { decideShellCommand } from "../../config/shell-policy.ts";
import type { AgentTool, ShellPolicy } from "../tool.ts";
import { blockedByHook, runCommandHooks } from "./command-hooks.ts";
import { scrubEnvironment } from "../../sandbox/environment.ts";
import { runProcess } from "./process.ts";
import { clip, errorResult } from "./results.ts";

/** timeout_s may lengthen the policy's default up to this, never past it. */
const SHELL_MAX_TIMEOUT_S = 600;

const inputSchema = z.object({
  command: z.string().min(1).describe("A bash command, run with bash -c in the worktree root."),
  timeout_s: z
    .number()
    .positive()
    .optional()
    .describe(`Seconds before the command is killed (default from config; at most ${SHELL_MAX_TIMEOUT_S}).`),
});

export const runShellTool: AgentTool<typeof inputSchema> = {
  name: "run_shell",
  description: `Run a bash command in the worktree root (tests, builds, linters, git status/diff/log). stdout and stderr come back together with the exit code; long output keeps its head and tail. The environment holds no credentials, stdin is empty, and the command and everything it started are killed at the timeout; background processes do not outlive the command. Some commands are refused by the repository's shell policy (git push, git config, git remote, …): Locus commits and pushes itself.`,
  inputSchema,
  readOnly: false,
  async run(input, context) {
    const shown = clip(input.command);
    const decision = decideShellCommand(input.command, context.shell);
    if (!decision.allowed) {
      return errorResult(`Bash ${shown} → refused`, refusal(decision, context.shell));
    }
    if (context.signal.aborted)
      return errorResult(`Bash ${shown} → aborted`, "The run was aborted; the command was not started.");
    const subject = { run: input.command, judged: input.command };
    const before = await runCommandHooks("before-command", subject, context);
    if (before.failed) return errorResult(`Bash ${shown} → refused by a hook`, blockedByHook(before.report));
    const timeoutSeconds = Math.min(
      input.timeout_s ?? context.shell.timeoutSeconds,
      Math.max(SHELL_MAX_TIMEOUT_S, context.shell.timeoutSeconds),
    );
    const outcome = await runProcess({
      command: input.command,
      cwd: context.cwd,
      env: scrubEnvironment(context.env),
      timeoutMs: timeoutSeconds * 1000,
      signal: context.signal,
      ...(context.sandbox ? { sandbox: context.sandbox } : {}),
    });
    if (outcome.spawnError !== undefined) {
      return errorResult(
        `Bash ${shown} → failed to start`,
        `The shell could not start: ${outcome.spawnError}`,
      );
    }
    const after = outcome.aborted ? undefined : await runCommandHooks("after-command", subject, context);
    const hooks = [before.report, after?.report ?? ""].filter((report) => report !== "").join("\n\n");
    const output =
      outcome.output === ""
        ? "(no output)\n"
        : outcome.output.endsWith("\n")
          ? outcome.output
          : `${outcome.output}\n`;
    if (outcome.timedOut || outcome.aborted) {
      const why = outcome.timedOut ? `timed out after ${timeoutSeconds} s` : "aborted";
      const hint = outcome.timedOut
        ? " Run something narrower, or pass a larger timeout_s if it really needs longer."
        : "";
      return errorResult(
        `Bash ${shown} → ${why}`,
        `${output}[The command ${why} and was killed with everything it started.${hint}]${hooks === "" ? "" : `\n\n${hooks}`}`,
      );
    }
    return {
      content: `${output}[exit code ${outcome.exitCode}]${hooks === "" ? "" : `\n\n${hooks}`}`,
      isError: outcome.exitCode !== 0,
      summary: `Bash ${shown} → exit ${outcome.exitCode}`,
    };
  },
};

function refusal(
  decision: Exclude<ReturnType<typeof decideShellCommand>, { allowed: true }>,
  policy: ShellPolicy,
): string {
  const reason =
    decision.reason === "denied"
      ? `"${decision.matched}" matches the denied pattern "${decision.pattern}".`
      : `"${decision.matched}" matches none of the allowed patterns (${policy.allow.map((pattern) => `"${pattern}"`).join(", ")}).`;
  return `Refused by the repository's shell policy: ${reason} The command was not run. Locus commits and pushes itself; use another command or finish and explain what you need.`;
}
