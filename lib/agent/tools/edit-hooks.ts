/**
 * Commands configured to run around file edits (a formatter, a linter). Their output goes back
 * to the model with the edit's result so it sees what the formatter changed or the linter said.
 * A failing before-edit hook blocks the edit (cyril's hook contract: before-hooks may veto,
 * after-hooks give feedback).
 */
import picomatch from "picomatch";
import type { EditHook, ToolContext } from "../tool.ts";
import { runHookCommands, shellQuote, type HookRun } from "./hook-commands.ts";

export async function runEditHooks(
  when: EditHook["when"],
  relativePath: string,
  context: ToolContext,
): Promise<HookRun> {
  const commands = context.hooks
    .filter((hook): hook is EditHook => hook.when === when && hookApplies(hook, relativePath))
    .map((hook) => hook.command.replaceAll("{path}", shellQuote(relativePath)));
  return runHookCommands(when, commands, context);
}

function hookApplies(hook: EditHook, relativePath: string): boolean {
  if (hook.files === undefined) return true;
  // `*.ts` matches at any depth, as in .gitignore; a pattern with a slash matches from the root.
  return picomatch.isMatch(relativePath, hook.files, { basename: true, dot: true });
}
