/**
 * What the simulator reads from its bare repositories again and again,
 * without a git process each time. Starting git from a test worker costs
 * milliseconds of the worker's own CPU (the kernel copies the large worker's
 * page tables on every fork), and serving one test's requests used to start
 * it about fifty times.
 *
 * A git object never changes, so whatever is read by full object id (a
 * commit, a path in a commit, what lies between two commits) is kept for the
 * repository's life. A branch moves (a push reaches the bare repository
 * without the simulator seeing it), so its tip is read from the files git
 * itself reads, a loose ref or else `packed-refs`, on every read: a file read,
 * not a process.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const OBJECT_ID = /^[0-9a-f]{40}$/;

export function isObjectId(ref: string): boolean {
  return OBJECT_ID.test(ref);
}

const repositories = new Map<string, Map<string, Promise<unknown>>>();

/** The answer for `key` in `gitDir`, computed once; a failed computation is not kept. */
export function remembered<T>(gitDir: string, key: string, compute: () => Promise<T>): Promise<T> {
  let entries = repositories.get(gitDir);
  if (!entries) {
    entries = new Map();
    repositories.set(gitDir, entries);
  }
  const known = entries.get(key) as Promise<T> | undefined;
  if (known) return known;
  const answer = compute();
  entries.set(key, answer);
  answer.catch(() => entries.delete(key));
  return answer;
}

/** Drops what is kept for the repositories under `dir` (the simulator removes them on close). */
export function forgetRepositoriesUnder(dir: string): void {
  for (const gitDir of repositories.keys()) if (gitDir.startsWith(dir)) repositories.delete(gitDir);
}

/**
 * A branch name this file may read as a path: git's own rules for a ref name
 * (git-check-ref-format) are stricter, and any name outside this plain subset
 * goes to git instead, so no name can read a file outside `refs/heads`.
 */
function isPlainBranchName(branch: string): boolean {
  return (
    /^[A-Za-z0-9._/-]+$/.test(branch) &&
    !branch.split("/").some((part) => part === "" || part.startsWith(".") || part.endsWith(".lock"))
  );
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The object id `refs/heads/<branch>` points at, `null` when there is no such
 * branch, or `undefined` when only git can tell (a symbolic ref, an unusual name).
 */
export async function readBranchTip(gitDir: string, branch: string): Promise<string | null | undefined> {
  if (!isPlainBranchName(branch)) return undefined;
  const ref = `refs/heads/${branch}`;
  const loose = await readText(join(gitDir, ref));
  if (loose !== undefined) {
    const id = loose.trim();
    return isObjectId(id) ? id : undefined;
  }
  const packed = await readText(join(gitDir, "packed-refs"));
  for (const line of packed?.split("\n") ?? []) {
    const [id = "", name] = line.split(" ");
    if (name === ref && isObjectId(id)) return id;
  }
  return null;
}
