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
import { readdirSync, readFileSync, type Dirent } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { join, relative } from "node:path";

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

/** Drops one kept answer. */
export function forget(gitDir: string, key: string): void {
  repositories.get(gitDir)?.delete(key);
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

async function exists(path: string): Promise<boolean> {
  return (await readText(path)) !== undefined;
}

/**
 * The object id a short name points at when it can only mean the branch
 * `refs/heads/<name>`, else `undefined` for git to answer. Git tries
 * `<name>`, `refs/<name>` and `refs/tags/<name>` before `refs/heads/<name>`
 * (gitrevisions), so any of those existing, or no such branch (the name may
 * be an abbreviated object id), leaves it to git.
 */
export async function readShortBranchName(gitDir: string, name: string): Promise<string | undefined> {
  if (!isPlainBranchName(name)) return undefined;
  for (const earlier of [name, `refs/${name}`, `refs/tags/${name}`]) {
    if (await exists(join(gitDir, earlier))) return undefined;
  }
  const packed = (await readText(join(gitDir, "packed-refs"))) ?? "";
  if (
    packed.split("\n").some((line) => line.endsWith(` refs/${name}`) || line.endsWith(` refs/tags/${name}`))
  )
    return undefined;
  return (await readBranchTip(gitDir, name)) ?? undefined;
}

/** Every branch and its tip, as `refs/heads/<name>` → object id: loose refs over packed ones, as git reads them. */
export async function readBranchTips(gitDir: string): Promise<Map<string, string>> {
  const packed = (await readText(join(gitDir, "packed-refs"))) ?? "";
  const heads = join(gitDir, "refs", "heads");
  const entries = await readdir(heads, { recursive: true, withFileTypes: true }).catch(() => []);
  const loose = await Promise.all(
    looseRefFiles(entries).map(async (path) => [path, await readText(path)] as const),
  );
  return branchTips(packed, heads, loose);
}

/**
 * The same, read synchronously: for a caller that must answer within one event (the demo's
 * timeline, which shows a push before the PR that reports it) and cannot start git per event.
 */
export function readBranchTipsSync(gitDir: string): Map<string, string> {
  const readSync = (path: string) => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
  };
  const heads = join(gitDir, "refs", "heads");
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(heads, { recursive: true, withFileTypes: true });
  } catch {
    // No loose branch yet: packed-refs alone says where the branches are.
  }
  const loose = looseRefFiles(entries).map((path) => [path, readSync(path)] as const);
  return branchTips(readSync(join(gitDir, "packed-refs")) ?? "", heads, loose);
}

function looseRefFiles(entries: readonly Dirent[]): string[] {
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith(".lock"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Branch → tip from `packed-refs` and the loose ref files, a loose ref winning as it does for git. */
function branchTips(
  packed: string,
  heads: string,
  loose: readonly (readonly [string, string | undefined])[],
): Map<string, string> {
  const tips = new Map<string, string>();
  for (const line of packed.split("\n")) {
    const [id = "", name] = line.split(" ");
    if (name?.startsWith("refs/heads/") && isObjectId(id)) tips.set(name, id);
  }
  for (const [path, text] of loose) {
    const id = text?.trim() ?? "";
    if (isObjectId(id)) tips.set(`refs/heads/${relative(heads, path)}`, id);
  }
  return tips;
}
