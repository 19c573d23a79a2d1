/**
 * Names that reach git's command line. Refs and paths come from issue numbers,
 * milestone titles (slugified) and config, so they are checked before use: a
 * leading `-` would be read as an option, `..` could climb out of a worktree.
 */

const REF = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)(?!.*\.lock(?:\/|$))[A-Za-z0-9._/-]+(?<![./])$/;

export function isValidRefName(name: string): boolean {
  return REF.test(name) && !name.split("/").some((part) => part === "" || part.startsWith("."));
}

export function assertRefName(name: string): string {
  if (!isValidRefName(name)) throw new Error(`Refusing unsafe git ref name ${JSON.stringify(name)}`);
  return name;
}

/** A path inside the repository: relative, no `..` segment, no leading `-`. */
export function assertRepoPath(path: string): string {
  const parts = path.split("/");
  if (path === "" || path.startsWith("/") || path.startsWith("-") || parts.includes("..")) {
    throw new Error(`Refusing unsafe repository path ${JSON.stringify(path)}`);
  }
  return path;
}
