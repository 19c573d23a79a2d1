/** The repository part of a prompt (docs/architecture.md "Prompt"), read from the worktree the agent will work in. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { GitClient } from "../git/git-client.ts";
import type { RepositoryContext } from "../prompt/task-prompt.ts";

const INSTRUCTION_FILES = [".locus/LOCUS.md", "AGENTS.md", "CLAUDE.md"];
const LEARNINGS_FILE = ".locus/LEARNINGS.md";
const MAX_TREE_FILES = 2_000;
const LOG_COMMITS = 20;

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

export async function readRepositoryContext(worktree: GitClient): Promise<RepositoryContext> {
  let instructions: RepositoryContext["instructions"];
  for (const path of INSTRUCTION_FILES) {
    const text = await readOptional(join(worktree.cwd, path));
    if (text !== undefined) {
      instructions = { path, text };
      break;
    }
  }
  const learnings = await readOptional(join(worktree.cwd, LEARNINGS_FILE));
  const files = await worktree.listFiles();
  return {
    ...(instructions ? { instructions } : {}),
    ...(learnings ? { learnings } : {}),
    fileTree: files.slice(0, MAX_TREE_FILES),
    recentLog: await worktree.recentLog(LOG_COMMITS),
  };
}
