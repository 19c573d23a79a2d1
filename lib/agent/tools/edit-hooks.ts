/**
 * Commands configured to run around file edits (a formatter, a linter). Their output goes back
 * to the model with the edit's result so it sees what the formatter changed or the linter said.
 * They come from the repository's config, not from the model, so the shell policy does not
 * apply to them. A failing before-edit hook blocks the edit (cyril's hook contract: before-hooks
 * may veto, after-hooks give feedback).
 */
import picomatch from "picomatch";
import type { EditHook, ToolContext } from "../tool.ts";
import { scrubEnvironment } from "./environment.ts";
import { runProcess } from "./process.ts";

export interface HookRun {
  /** Each hook's command, exit code and output, ready to append to a tool result; `""` when none ran. */
  readonly report: string;
  readonly failed: boolean;
}

export async function runEditHooks(
  when: EditHook["when"],
  relativePath: string,
  context: ToolContext,
): Promise<HookRun> {
  const sections: string[] = [];
  let failed = false;
  for (const hook of context.hooks) {
    if (hook.when !== when || !hookApplies(hook, relativePath)) continue;
    const command = hook.command.replaceAll("{path}", shellQuote(relativePath));
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

function hookApplies(hook: EditHook, relativePath: string): boolean {
  if (hook.files === undefined) return true;
  // `*.ts` matches at any depth, as in .gitignore; a pattern with a slash matches from the root.
  return picomatch.isMatch(relativePath, hook.files, { basename: true, dot: true });
}

/** Single quotes keep every character literal; a single quote itself is closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
