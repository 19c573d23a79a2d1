/**
 * bubblewrap's command line for one sandboxed process (pure: the mounts are worked out by the
 * caller, which looks at the filesystem). Everything not mounted here does not exist inside: the
 * root is an empty tmpfs, the system and toolchains are bound read-only, the worktree and the
 * private temp and home directories are the only writable places, and the repository's git
 * directory is read-only even where it sits inside the worktree, so the agent cannot plant
 * config, hooks or remotes for Locus's own git. Every namespace is new (user, PID, IPC, network,
 * UTS, cgroup, mount): `/proc` shows only the sandbox's own processes and the network is a
 * loopback of its own. bubblewrap always sets no-new-privileges (no `sudo`, no setuid), and the
 * capabilities are dropped even when the Action runs as root.
 */

/** A bind mount: `source` on the host appears at `dest` inside. */
export interface Mount {
  readonly source: string;
  readonly dest: string;
}

export interface BwrapPlan {
  /** System and toolchain directories, read-only, at the same path. */
  readonly readOnly: readonly string[];
  /** Directories inside those that must stay out of sight, covered by an empty tmpfs. */
  readonly masked?: readonly string[];
  /** Directories inside a masked one bound again on top of the mask, read-only (the node running Locus). */
  readonly unmasked?: readonly string[];
  /** Top-level links of a merged-/usr system (`/bin → usr/bin`). */
  readonly symlinks: readonly { readonly target: string; readonly path: string }[];
  /** The private temp directory (mounted at `/tmp`) and home. */
  readonly tmp: Mount;
  readonly home: Mount;
  /** The worktree, writable at its own path. */
  readonly worktree: string;
  /** Git metadata made read-only on top of the worktree (see sandbox-mounts.ts). */
  readonly readOnlyGit: readonly string[];
  /** Host paths bound read-only for this one command. */
  readonly readable?: readonly string[];
  /** Host paths bound read-write for this one command (Locus's own git), over the read-only git mounts. */
  readonly writable?: readonly string[];
  /** The egress proxy's Unix socket, bound into the sandbox. */
  readonly proxySocket?: Mount;
  /** Variables removed inside, whatever the spawner added to the allowlisted environment. */
  readonly unsetEnv?: readonly string[];
  /** Where the command starts inside; the worktree when absent. */
  readonly chdir?: string;
  /**
   * For a session that runs many commands (sandbox-session.ts): the root and `/dev` read-only and
   * a shared-memory directory the init empties after each command, so that nothing one command
   * writes outside the worktree and the private temp is there for the next.
   */
  readonly sealed?: boolean;
}

export function bwrapArgs(plan: BwrapPlan, command: readonly string[]): string[] {
  const args = [
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--hostname",
    "locus-sandbox",
  ];
  // The private temp and home first: a toolchain on PATH may live under the host's /tmp.
  args.push("--bind", plan.tmp.source, plan.tmp.dest);
  args.push("--bind", plan.home.source, plan.home.dest);
  for (const dir of plan.readOnly) args.push("--ro-bind", dir, dir);
  for (const dir of plan.masked ?? []) args.push("--tmpfs", dir);
  for (const dir of plan.unmasked ?? []) args.push("--ro-bind", dir, dir);
  for (const link of plan.symlinks) args.push("--symlink", link.target, link.path);
  args.push("--proc", "/proc", "--dev", "/dev");
  args.push("--bind", plan.worktree, plan.worktree);
  for (const dir of plan.readOnlyGit) args.push("--ro-bind", dir, dir);
  for (const path of plan.readable ?? []) args.push("--ro-bind", path, path);
  for (const path of plan.writable ?? []) args.push("--bind", path, path);
  if (plan.proxySocket) args.push("--bind", plan.proxySocket.source, plan.proxySocket.dest);
  for (const name of plan.unsetEnv ?? []) args.push("--unsetenv", name);
  // Last, once every mount point exists: later mounts need their directories made on the root.
  if (plan.sealed) args.push("--tmpfs", "/dev/shm", "--remount-ro", "/dev", "--remount-ro", "/");
  args.push("--chdir", plan.chdir ?? plan.worktree, "--", ...command);
  return args;
}
