/**
 * Commands configured to run around the agent's own commands (`run_shell`, an ACP agent's
 * terminals): a before-command hook may refuse the command (a guard, an audit that must pass),
 * an after-command hook's output is appended to the command's result (a cleanup, a report). The
 * hook sees the agent's command as `{command}`, shell-quoted, and is matched by an optional
 * shell-policy glob over it.
 */
import { commandMentions } from "../../config/shell-policy.ts";
import type { CommandHook, ToolContext } from "../tool.ts";
import { runHookCommands, shellQuote, type HookRun } from "./hook-commands.ts";

/**
 * `command` is what runs (substituted for `{command}`); `judged` is the text matched against each
 * hook's `commands` pattern, the same text the shell policy judges.
 */
export async function runCommandHooks(
  when: CommandHook["when"],
  command: { readonly run: string; readonly judged: string },
  context: ToolContext,
): Promise<HookRun> {
  const commands = context.hooks
    .filter(
      (hook): hook is CommandHook =>
        hook.when === when && (hook.commands === undefined || commandMentions(hook.commands, command.judged)),
    )
    .map((hook) => hook.command.replaceAll("{command}", shellQuote(command.run)));
  return runHookCommands(when, commands, context);
}

/** What a failing before-command hook tells the agent: the command was not run, and why. */
export function blockedByHook(report: string): string {
  return `A before-command hook refused this command, so it was not run. Change the command or finish and explain what you need.\n\n${report}`;
}
