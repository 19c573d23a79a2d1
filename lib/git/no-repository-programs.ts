/**
 * Git options that keep any repository's own programs from running: no hooks, no fsmonitor
 * program, no descent into nested repositories. Every git command Locus runs starts with them,
 * in the worktree (which the agent can write, and where a "submodule" is a repository with its
 * own config and filters) and in Locus's own repository alike.
 */
export const NO_REPOSITORY_PROGRAMS: readonly string[] = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "submodule.recurse=false",
];
