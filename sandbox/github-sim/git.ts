import { spawnerRun } from "../spawner/spawner.ts";
import { writeEmptyBareRepository } from "./bare-repository.ts";
import { forget, isObjectId, readBranchTip, readShortBranchName, remembered } from "./git-cache.ts";

// Every git call is a program and an argument array (no shell, no quoting issues), started by the
// spawner's small child process rather than this large one (sandbox/spawner/spawner.ts).

export interface GitIdentity {
  name: string;
  email: string;
}

interface GitRunOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  allowFailure?: boolean;
}

interface GitResult {
  stdout: Buffer;
  code: number;
}

async function execGit(gitDir: string, args: string[], options: GitRunOptions = {}): Promise<GitResult> {
  const run = await spawnerRun({
    file: "git",
    args: ["--git-dir", gitDir, "-c", "core.quotePath=false", ...args],
    env: { ...process.env, ...options.env },
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  const code = run.code ?? 1;
  if (code !== 0 && !options.allowFailure) {
    throw new Error(`git ${args.join(" ")} failed: ${run.stderr.toString().trim()}`);
  }
  return { stdout: run.stdout, code };
}

export async function git(gitDir: string, args: string[], options: GitRunOptions = {}): Promise<string> {
  const result = await execGit(gitDir, args, options);
  return result.stdout.toString("utf8");
}

function identityEnv(identity: GitIdentity, date?: string): Record<string, string> {
  const env: Record<string, string> = {
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
  };
  if (date) {
    env.GIT_AUTHOR_DATE = date;
    env.GIT_COMMITTER_DATE = date;
  }
  return env;
}

export async function initBareRepository(
  gitDir: string,
  defaultBranch: string,
  files: Record<string, string>,
  identity: GitIdentity,
): Promise<void> {
  await writeEmptyBareRepository(gitDir, defaultBranch);
  if (Object.keys(files).length === 0) return;
  // One fast-import stream makes the whole first commit: a process for the lot, not one per file and folder.
  await git(gitDir, ["fast-import", "--quiet", "--date-format=now"], {
    input: initialCommitStream(`refs/heads/${defaultBranch}`, files, identity),
  });
  // The branch's tip is the commit just made: known as one, with no git process to ask.
  const tip = await readBranchTip(gitDir, defaultBranch);
  if (tip) await remembered(gitDir, `commit ${tip}`, () => Promise.resolve(tip));
}

/** `bytes` as a fast-import data block. */
function dataBlock(bytes: string): string {
  return `data ${Buffer.byteLength(bytes)}\n${bytes}\n`;
}

/** A path as fast-import reads it: as it is, or C-quoted when it could be misread. */
function importPath(path: string): string {
  return /^"|[\n\\"]/.test(path) ? JSON.stringify(path) : path;
}

function initialCommitStream(ref: string, files: Record<string, string>, identity: GitIdentity): string {
  const who = `${identity.name} <${identity.email}> now`;
  const changes = Object.entries(files).map(
    ([path, content]) => `M 100644 inline ${importPath(path)}\n${dataBlock(content)}`,
  );
  return `commit ${ref}\nauthor ${who}\ncommitter ${who}\n${dataBlock("Initial commit\n")}${changes.join("")}done\n`;
}

export interface BranchRef {
  name: string;
  sha: string;
}

export async function listBranches(gitDir: string): Promise<BranchRef[]> {
  const out = await git(gitDir, ["for-each-ref", "--format=%(refname:strip=2) %(objectname)", "refs/heads"]);
  return out
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => {
      const space = line.lastIndexOf(" ");
      return { name: line.slice(0, space), sha: line.slice(space + 1) };
    });
}

const BRANCH_PREFIX = "refs/heads/";

async function askGitForCommit(gitDir: string, ref: string): Promise<string | null> {
  const result = await execGit(gitDir, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
    allowFailure: true,
  });
  return result.code === 0 ? result.stdout.toString().trim() : null;
}

export async function resolveCommit(gitDir: string, ref: string): Promise<string | null> {
  if (ref.startsWith("-")) return null;
  // An object id names the same object forever; one not there yet may be pushed later, so only a find is kept.
  if (isObjectId(ref)) {
    const found = await remembered(gitDir, `commit ${ref}`, () => askGitForCommit(gitDir, ref));
    if (found === null) forget(gitDir, `commit ${ref}`);
    return found;
  }
  // A full branch name that exists means that branch (git tries it first): a file read, not a
  // git process. A missing one is left to git, whose other rules may still find it.
  const tip = ref.startsWith(BRANCH_PREFIX)
    ? ((await readBranchTip(gitDir, ref.slice(BRANCH_PREFIX.length))) ?? undefined)
    : await readShortBranchName(gitDir, ref);
  return tip === undefined ? askGitForCommit(gitDir, ref) : resolveCommit(gitDir, tip);
}

export async function branchSha(gitDir: string, branch: string): Promise<string | null> {
  const tip = await readBranchTip(gitDir, branch);
  if (tip === null) return null;
  return resolveCommit(gitDir, tip ?? `refs/heads/${branch}`);
}

export interface TreeEntry {
  name: string;
  path: string;
  type: "file" | "dir" | "submodule" | "symlink";
  sha: string;
  size: number;
}

export type PathContent =
  | { type: "file"; sha: string; size: number; content: Buffer; path: string; name: string }
  | { type: "dir"; entries: TreeEntry[] };

function entryType(mode: string, kind: string): TreeEntry["type"] {
  if (kind === "tree") return "dir";
  if (kind === "commit") return "submodule";
  return mode === "120000" ? "symlink" : "file";
}

function parseLsTree(out: string): TreeEntry[] {
  return out
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => {
      const [meta = "", path = ""] = line.split("\t");
      const [mode = "", kind = "", sha = "", size = "-"] = meta.split(/\s+/);
      const name = path.slice(path.lastIndexOf("/") + 1);
      return { name, path, type: entryType(mode, kind), sha, size: size === "-" ? 0 : Number(size) };
    });
}

export async function readPath(gitDir: string, commit: string, path: string): Promise<PathContent | null> {
  if (!isObjectId(commit)) return readPathNow(gitDir, commit, path);
  return remembered(gitDir, `path ${commit} ${path}`, () => readPathNow(gitDir, commit, path));
}

async function readPathNow(gitDir: string, commit: string, path: string): Promise<PathContent | null> {
  const clean = path.replace(/^\/+|\/+$/g, "");
  if (clean === "") {
    return { type: "dir", entries: parseLsTree(await git(gitDir, ["ls-tree", "-l", commit])) };
  }
  const self = parseLsTree(await git(gitDir, ["ls-tree", "-l", commit, "--", clean]));
  const entry = self.find((candidate) => candidate.path === clean);
  if (!entry) return null;
  if (entry.type === "dir") {
    return {
      type: "dir",
      entries: parseLsTree(await git(gitDir, ["ls-tree", "-l", commit, "--", `${clean}/`])),
    };
  }
  const content = (await execGit(gitDir, ["cat-file", "blob", entry.sha])).stdout;
  return { type: "file", sha: entry.sha, size: entry.size, content, path: clean, name: entry.name };
}

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerName: string;
  committerEmail: string;
  committerDate: string;
  message: string;
}

const commitFormat = "%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x1e";

function parseCommits(out: string): CommitInfo[] {
  return out
    .split("\x1e")
    .map((chunk) => chunk.replace(/^\n/, ""))
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => {
      const [
        sha = "",
        tree = "",
        parents = "",
        an = "",
        ae = "",
        ad = "",
        cn = "",
        ce = "",
        cd = "",
        message = "",
      ] = chunk.split("\x00");
      return {
        sha,
        tree,
        parents: parents.split(" ").filter((parent) => parent.length > 0),
        authorName: an,
        authorEmail: ae,
        authorDate: toUtc(ad),
        committerName: cn,
        committerEmail: ce,
        committerDate: toUtc(cd),
        message: message.replace(/\n$/, ""),
      };
    });
}

function toUtc(date: string): string {
  return new Date(date).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export async function commitInfo(gitDir: string, sha: string): Promise<CommitInfo | null> {
  const resolved = await resolveCommit(gitDir, sha);
  if (!resolved) return null;
  return remembered(
    gitDir,
    `log ${resolved}`,
    async () =>
      parseCommits(await git(gitDir, ["log", "-1", `--format=${commitFormat}`, resolved]))[0] ?? null,
  );
}

/** `compute`, kept when both ends are object ids: what lies between two commits never changes. */
function betweenCommits<T>(
  gitDir: string,
  what: string,
  base: string,
  head: string,
  compute: () => Promise<T>,
): Promise<T> {
  if (!isObjectId(base) || !isObjectId(head)) return compute();
  return remembered(gitDir, `${what} ${base} ${head}`, compute);
}

// Commits reachable from head but not from base, oldest first (what a PR's commits tab lists).
export async function commitsBetween(gitDir: string, base: string, head: string): Promise<CommitInfo[]> {
  return betweenCommits(gitDir, "commits", base, head, async () =>
    parseCommits(await git(gitDir, ["log", "--reverse", `--format=${commitFormat}`, `${base}..${head}`])),
  );
}

export async function mergeBase(gitDir: string, a: string, b: string): Promise<string | null> {
  const result = await execGit(gitDir, ["merge-base", a, b], { allowFailure: true });
  return result.code === 0 ? result.stdout.toString().trim() : null;
}

export async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  const result = await execGit(gitDir, ["merge-base", "--is-ancestor", ancestor, descendant], {
    allowFailure: true,
  });
  return result.code === 0;
}

// `git diff base...head`: the changes on head since it forked from base, which is what GitHub shows for a PR.
export async function threeDotDiff(gitDir: string, base: string, head: string): Promise<string> {
  return betweenCommits(gitDir, "diff", base, head, () =>
    git(gitDir, ["diff", "--no-color", "--no-ext-diff", "--no-renames", `${base}...${head}`]),
  );
}

export interface RawChange {
  path: string;
  status: "added" | "removed" | "modified";
  sha: string;
}

export async function rawChanges(gitDir: string, base: string, head: string): Promise<RawChange[]> {
  const out = await git(gitDir, ["diff", "--raw", "--no-abbrev", "--no-renames", `${base}...${head}`]);
  return out
    .split("\n")
    .filter((line) => line.startsWith(":"))
    .map((line) => {
      const [meta = "", path = ""] = line.split("\t");
      const [, , oldSha = "", newSha = "", letter = ""] = meta.split(" ");
      const status = letter === "A" ? "added" : letter === "D" ? "removed" : "modified";
      return { path, status, sha: status === "removed" ? oldSha : newSha };
    });
}

export async function updateRef(gitDir: string, ref: string, sha: string): Promise<void> {
  await git(gitDir, ["update-ref", ref, sha]);
}

export async function deleteRef(gitDir: string, ref: string): Promise<void> {
  await git(gitDir, ["update-ref", "-d", ref]);
}

export type MergeMethod = "merge" | "squash" | "rebase";

// Creates the merge (or squash) commit without a worktree; null when the branches conflict.
export async function createMergeCommit(
  gitDir: string,
  baseSha: string,
  headSha: string,
  method: "merge" | "squash",
  message: string,
  identity: GitIdentity,
  date: string,
): Promise<string | null> {
  const merged = await execGit(gitDir, ["merge-tree", "--write-tree", baseSha, headSha], {
    allowFailure: true,
  });
  if (merged.code !== 0) return null;
  const tree = merged.stdout.toString().split("\n")[0]?.trim() ?? "";
  const parents = method === "merge" ? ["-p", baseSha, "-p", headSha] : ["-p", baseSha];
  const sha = await git(gitDir, ["commit-tree", tree, ...parents, "-m", message], {
    env: identityEnv(identity, date),
  });
  return sha.trim();
}
