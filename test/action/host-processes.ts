/**
 * The host processes a bundled Action run started, and the rule they are held to: after the agent
 * began, the Action starts only bubblewrap and git in Locus's own repository on the host
 * (docs/sandbox.md, "Nothing the agent wrote runs on the host"). `recording(log)` is the
 * environment that preloads the recorder (record-processes.ts) into the Action.
 */
import { readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { StartedProcess } from "./record-processes.ts";

/** The environment that makes the Action record every child process it starts into `log` (emptied now). */
export async function recording(log: string): Promise<Record<string, string>> {
  await writeFile(log, "");
  return {
    NODE_OPTIONS: `--import=${join(import.meta.dirname, "record-processes.ts")}`,
    LOCUS_TEST_PROCESS_LOG: log,
  };
}

/** What the recorder wrote into `log`. */
export async function startedProcesses(log: string): Promise<StartedProcess[]> {
  const lines = (await readFile(log, "utf8")).split("\n").filter(Boolean);
  return lines.map((line) => JSON.parse(line) as StartedProcess);
}

/** The processes that are neither the sandbox nor git in Locus's own repository. */
export function outsideTheRule(started: readonly StartedProcess[], runnerTemp: string): StartedProcess[] {
  const own = join(runnerTemp, "locus-repository");
  return started.filter((p) => {
    if (basename(p.file) === "bwrap") return false;
    const inOwnRepository = basename(p.file) === "git" && p.cwd === own;
    // Its arguments name Locus's repository, a bundle in the host's temp, or the remote: no worktree.
    const namesAWorktree = p.args.some((arg) => arg.includes("workspace") || arg.includes("locus-worktrees"));
    return !inOwnRepository || namesAWorktree;
  });
}
