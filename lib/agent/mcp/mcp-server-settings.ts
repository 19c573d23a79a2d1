/** One MCP server from config `agent.mcpServers`, as every provider receives it. */
export interface McpServerSettings {
  readonly name: string;
  /** A stdio server: the command line (split on spaces, no shell) or its arguments. */
  readonly command?: string | readonly string[];
  /** A Streamable HTTP server. */
  readonly url?: string;
  /** Environment variables (its secrets) a stdio server receives. */
  readonly env: readonly string[];
  /** For an HTTP server: the variable whose value is sent as `Authorization: Bearer`. */
  readonly bearer?: string;
  /** The task stops when this server cannot start. */
  readonly required: boolean;
}

/** The config record (`name: settings`) as a list, in the order the file gives it. */
export function mcpServerList(
  servers: Readonly<Record<string, Omit<McpServerSettings, "name">>> | undefined,
): McpServerSettings[] {
  return Object.entries(servers ?? {}).map(([name, server]) => ({
    name,
    ...(server.command === undefined ? {} : { command: server.command }),
    ...(server.url === undefined ? {} : { url: server.url }),
    env: server.env,
    ...(server.bearer === undefined ? {} : { bearer: server.bearer }),
    required: server.required,
  }));
}

/**
 * A stdio server's arguments with `{worktree}` replaced by the worktree's path: servers start
 * outside the repository (a launcher would take code and config from it), so one that works on the
 * repository is told where it is.
 */
export function withWorktree(args: readonly string[], worktree: string): string[] {
  return args.map((arg) => arg.replaceAll("{worktree}", worktree));
}
