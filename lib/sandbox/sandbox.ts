/**
 * The boundary every process the agent starts runs in. A sandbox turns "run this program in this
 * worktree with this environment" into the command line that actually runs it: under bubblewrap
 * when the run is sandboxed, unchanged (with a note everywhere) when config says `off`. Callers
 * spawn what `wrap` returns with the returned environment, and nothing else: `run_shell`, edit
 * hooks, the CLI runners and ACP agents and terminals all go through here.
 */

export type SandboxKind = "bubblewrap" | "off";

export interface WrapOptions {
  /** The worktree: the only host directory the process may write (besides its private temp). */
  readonly cwd: string;
  /** The caller's environment; only allowlisted names survive (see sandbox-environment.ts). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Names the caller deliberately passes through, e.g. a CLI agent's own model API key. */
  readonly keep?: readonly string[];
  /** Host files or directories the process must read (a schema file Locus wrote for a CLI). */
  readonly readable?: readonly string[];
  /**
   * Host directories the process may write besides the worktree: only for Locus's own git
   * (the repository's git directory, a transfer directory) and setup's download cache, never for
   * the agent's commands.
   */
  readonly writable?: readonly string[];
  /** No relay to the egress proxy (it costs a start and a wait): for a command that needs no network. */
  readonly offline?: boolean;
  /**
   * Where the process starts: the worktree (commands the agent runs), or a directory of no
   * repository (`neutral`) for a program that holds credentials, such as an ACP agent or an MCP
   * server. Launchers like `npx`, `uvx` or `python -m` read config and code from the directory
   * they start in, so started in the worktree the repository would choose what runs with them.
   */
  readonly startIn?: "worktree" | "neutral";
  /**
   * A program that holds credentials (an MCP server, a CLI or ACP agent): it gets a home and temp
   * directory of its own, made fresh for this one command and written by no other process (not
   * the agent's shell, whose home a test could plant `~/.npmrc` in), and its tools read no user
   * or global config file from anywhere else (sandbox-environment.ts).
   */
  readonly holdsCredentials?: boolean;
  /**
   * A directory inside `cwd` to start in instead of `cwd` itself (an ACP terminal's requested
   * directory, checked by the caller). It only says where the command starts: what the sandbox
   * binds is always worked out from `cwd`, never from anything found in this directory, so the
   * directory a caller names cannot choose which host paths the process sees.
   */
  readonly chdir?: string;
}

export interface WrappedCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/** One command run to its end (`Sandbox.exec`): what to run, for how long, and how much output to keep. */
export interface CommandRequest {
  readonly file: string;
  readonly args: readonly string[];
  /** Milliseconds before the command's process group gets SIGTERM, then SIGKILL after `killGraceMs`. */
  readonly timeoutMs: number;
  readonly killGraceMs?: number;
  /** Ends the command early, as a timeout does (the outcome says `aborted`). */
  readonly signal?: AbortSignal;
  /**
   * The output kept: the first `headBytes` stream as they are written, the last `tailBytes` come
   * when the command ends, and what falls between is only counted (`droppedBytes`).
   */
  readonly headBytes: number;
  readonly tailBytes: number;
  /** Output in the order it was written: fd 1 or 2 and its bytes. */
  readonly onOutput: (stream: 1 | 2, chunk: Buffer) => void;
}

export interface CommandOutcome {
  /** The exit code, or 128 + the signal number when a signal ended it (as bash reports it). */
  readonly exitCode: number;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Output bytes left out between the head and the tail. */
  readonly droppedBytes: number;
  /** Set when the program could not start (not found, no such directory). */
  readonly spawnError?: string;
}

/** A host the egress proxy refused, and how many times. */
export interface RefusedHost {
  readonly host: string;
  readonly count: number;
}

export interface Sandbox {
  readonly kind: SandboxKind;
  /** Host patterns the egress proxy lets through (empty when off: the network is not filtered). */
  readonly allowedHosts: readonly string[];
  wrap(file: string, args: readonly string[], options: WrapOptions): Promise<WrappedCommand>;
  /**
   * Runs one command to its end, in its own process group, and kills whatever it left running.
   * Under bubblewrap the command runs in the run's long-lived sandbox for these mounts
   * (sandbox-session.ts) rather than a new one: a few milliseconds instead of a sandbox's start.
   * Rejects only when the sandbox itself failed (its init died or stopped answering).
   */
  exec(request: CommandRequest, options: WrapOptions): Promise<CommandOutcome>;
  /**
   * Starts the session `exec` will use for these mounts, in the background, so that its start
   * (bubblewrap and the init, a few hundred ms under load) overlaps the model's first turn.
   */
  prepare(options: WrapOptions): void;
  /** Connections refused so far, most refused first. */
  refused(): RefusedHost[];
  /** Stops the proxy and removes the private directories. */
  close(): Promise<void>;
}
