/**
 * Opening and writing worktree files without a check-then-use race. `resolveWorktreePath`
 * checks a path, but the agent's own shell can swap a component for a symlink to outside the
 * worktree before the tool opens it by name again. So a file is opened without following a
 * symlink at its last component and the opened descriptor's real path is checked (Linux
 * `/proc/self/fd`), and a write walks down from the worktree root one directory descriptor at a
 * time, never following a symlink, and creates and renames its file through the last one.
 */
import { constants } from "node:fs";
import {
  chmod,
  lstat,
  mkdir,
  open,
  readlink,
  rename,
  rm,
  writeFile,
  type FileHandle,
} from "node:fs/promises";
import { randomUUID } from "node:crypto";
import path from "node:path";

/** A path that left the worktree between its check and its use. */
export class ConfinementError extends Error {
  constructor(relative: string) {
    super(
      `${relative} changed into a link to outside the worktree while it was being used; nothing outside the worktree is read or written.`,
    );
  }
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The path a descriptor was opened at, as the kernel knows it now. */
function descriptorPath(handle: FileHandle): string {
  return `/proc/self/fd/${handle.fd}`;
}

/** Inside `root` and not in a `.git` directory (the same rule as `resolveWorktreePath`). */
function isAllowed(root: string, absolute: string): boolean {
  const relative = path.relative(root, absolute);
  if (relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return false;
  return !relative.split(path.sep).some((segment) => segment.toLowerCase() === ".git");
}

async function assertOpenedInside(root: string, handle: FileHandle, relative: string): Promise<void> {
  if (process.platform !== "linux") return;
  const real = await readlink(descriptorPath(handle));
  if (!isAllowed(root, real)) throw new ConfinementError(relative);
}

function isErrno(error: unknown, ...codes: string[]): boolean {
  return codes.includes((error as NodeJS.ErrnoException).code ?? "");
}

/**
 * Opens `absolute` (a path inside `root`, already resolved) for reading; `undefined` when it does
 * not exist. A symlink swapped in at the last component, or a directory above it swapped for
 * one, is refused with a `ConfinementError`.
 */
export async function openConfined(root: string, absolute: string): Promise<FileHandle | undefined> {
  const relative = path.relative(root, absolute) || ".";
  let handle: FileHandle;
  try {
    handle = await open(absolute, READ_FLAGS);
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return undefined;
    if (isErrno(error, "ELOOP")) throw new ConfinementError(relative);
    throw error;
  }
  try {
    await assertOpenedInside(root, handle, relative);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Opens the directory `relative` (`/`-separated, inside `root`) one component at a time, creating missing ones. */
async function openDirectory(root: string, relative: string): Promise<FileHandle> {
  let current = await open(root, DIRECTORY_FLAGS);
  try {
    for (const name of relative.split("/").filter((segment) => segment !== "" && segment !== ".")) {
      const child = path.join(descriptorPath(current), name);
      await mkdir(child).catch((error: unknown) => {
        if (!isErrno(error, "EEXIST")) throw error;
      });
      let next: FileHandle;
      try {
        next = await open(child, DIRECTORY_FLAGS);
      } catch (error) {
        if (isErrno(error, "ELOOP", "ENOTDIR")) throw new ConfinementError(relative);
        throw error;
      }
      await current.close();
      current = next;
    }
    await assertOpenedInside(root, current, relative);
    return current;
  } catch (error) {
    await current.close();
    throw error;
  }
}

/**
 * Writes `content` to `absolute` (inside `root`) through a temporary file and a rename in the
 * same directory, so a reader (or a crash) never sees half a file; the existing file's
 * permissions are kept. A symlink that took the file's place is replaced, not followed.
 */
export async function writeConfined(root: string, absolute: string, content: string): Promise<void> {
  if (process.platform !== "linux") return writeByPath(absolute, content);
  const relativeDirectory = path.relative(root, path.dirname(absolute)).split(path.sep).join("/");
  const directory = await openDirectory(root, relativeDirectory);
  try {
    const base = path.basename(absolute);
    const inDirectory = (name: string) => path.join(descriptorPath(directory), name);
    const mode = await lstat(inDirectory(base)).then(
      (info) => (info.isFile() ? info.mode & 0o7777 : undefined),
      () => undefined,
    );
    const temporary = inDirectory(`.${base}.locus-${randomUUID().slice(0, 8)}.tmp`);
    try {
      await writeFile(temporary, content, { flag: "wx" });
      if (mode !== undefined) await chmod(temporary, mode);
      await rename(temporary, inDirectory(base));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  } finally {
    await directory.close();
  }
}

/** Other systems have no `/proc/self/fd`: the checked path is used by name. */
async function writeByPath(absolute: string, content: string): Promise<void> {
  const directory = path.dirname(absolute);
  await mkdir(directory, { recursive: true });
  const mode = await lstat(absolute).then(
    (info) => (info.isFile() ? info.mode & 0o7777 : undefined),
    () => undefined,
  );
  const temporary = path.join(directory, `.${path.basename(absolute)}.locus-${randomUUID().slice(0, 8)}.tmp`);
  try {
    await writeFile(temporary, content, { flag: "wx" });
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, absolute);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
