/**
 * The repository part of a prompt (docs/architecture.md "Prompt"). Instructions and learnings become the
 * system prompt, so they are read from the trusted commit (the default branch at the trigger),
 * from git's objects and never through the filesystem: a symlinked instruction file
 * (`AGENTS.md → /proc/self/environ`) is refused, and a file an earlier task of the same run wrote
 * in the worktree is never promoted to system prompt. The file tree and log come from the worktree.
 */
import type { GitClient } from "../git/git-client.ts";
import type { ActionContext } from "./context.ts";
import type { RepositoryContext } from "../prompt/task-prompt.ts";

const INSTRUCTION_FILES = [".locus/LOCUS.md", "AGENTS.md", "CLAUDE.md"];
const LEARNINGS_FILE = ".locus/LEARNINGS.md";
const MAX_TREE_FILES = 2_000;
const LOG_COMMITS = 20;

/** `trusted` is the commit instructions come from: the default branch as the run found it. */
export async function readRepositoryContext(
  worktree: GitClient,
  trusted: string,
): Promise<RepositoryContext> {
  // One listing for every candidate; only the files used are read. A symbolic link is no file.
  const committed = await worktree.committedFiles(trusted, [...INSTRUCTION_FILES, LEARNINGS_FILE]);
  const read = async (path: string | undefined) => {
    const entry = path === undefined ? undefined : committed.get(path);
    return entry?.kind === "file" ? entry.read() : undefined;
  };
  const path = INSTRUCTION_FILES.find((candidate) => committed.get(candidate)?.kind === "file");
  const text = await read(path);
  const instructions = path !== undefined && text !== undefined ? { path, text } : undefined;
  const learnings = await read(LEARNINGS_FILE);
  const files = await worktree.listFiles();
  return {
    ...(instructions ? { instructions } : {}),
    ...(learnings ? { learnings } : {}),
    fileTree: files.slice(0, MAX_TREE_FILES),
    recentLog: await worktree.recentLog(LOG_COMMITS),
  };
}

/** The commit the run started from (recorded before any agent ran), else the checkout's HEAD now. */
export async function trustedCommit(ctx: Pick<ActionContext, "git" | "run">): Promise<string> {
  return ctx.run.trustedCommit ?? (await ctx.git.revParse("HEAD")) ?? "HEAD";
}
