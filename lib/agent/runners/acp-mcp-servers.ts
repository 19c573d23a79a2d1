/**
 * Config `agent.mcpServers` as ACP's `session/new` `mcpServers`: the agent starts or reaches them
 * itself. A stdio server gets only the secrets config names for it (the agent adds its own
 * environment); an HTTP server is offered only to an agent that says it can use one.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { withWorktree, type McpServerSettings } from "../mcp/mcp-server-settings.ts";
import { acpCommandLine } from "./acp-command.ts";
import { findTrustedExecutable, type TrustedLookup } from "./trusted-executable.ts";

/**
 * The stdio servers with their programs found the way the built-in runner finds them (never in
 * the repository: they receive their secrets), as absolute paths the agent starts as given. A
 * server whose program is refused is left out, with the reason.
 */
export async function trustedAcpMcpServers(
  servers: readonly McpServerSettings[],
  lookup: TrustedLookup,
  worktree: string,
): Promise<{ readonly servers: McpServerSettings[]; readonly refused: { name: string; reason: string }[] }> {
  const kept: McpServerSettings[] = [];
  const refused: { name: string; reason: string }[] = [];
  for (const server of servers) {
    const line = acpCommandLine(server.command);
    if (line === undefined) {
      kept.push(server);
      continue;
    }
    const found = await findTrustedExecutable(line.executable, lookup);
    if (found.found) kept.push({ ...server, command: [found.path, ...withWorktree(line.args, worktree)] });
    else refused.push({ name: server.name, reason: found.reason });
  }
  return { servers: kept, refused };
}

export function acpMcpServers(
  servers: readonly McpServerSettings[],
  env: Readonly<Record<string, string | undefined>>,
  capabilities: acp.McpCapabilities | undefined,
): { readonly offered: acp.McpServer[]; readonly skipped: string[] } {
  const offered: acp.McpServer[] = [];
  const skipped: string[] = [];
  for (const server of servers) {
    const line = acpCommandLine(server.command);
    if (line !== undefined) {
      offered.push({
        name: server.name,
        command: line.executable,
        args: [...line.args],
        env: server.env.flatMap((name) => {
          const value = env[name];
          return value === undefined ? [] : [{ name, value }];
        }),
      });
    } else if (server.url !== undefined && capabilities?.http === true) {
      const token = server.bearer === undefined ? undefined : env[server.bearer];
      offered.push({
        type: "http",
        name: server.name,
        url: server.url,
        headers: token === undefined ? [] : [{ name: "Authorization", value: `Bearer ${token}` }],
      });
    } else {
      skipped.push(server.name);
    }
  }
  return { offered, skipped };
}

/** The programs of the stdio servers, as `trustedAcpMcpServers` resolved them (absolute paths). */
export function serverPrograms(servers: readonly McpServerSettings[]): string[] {
  return servers.flatMap((server) => {
    const line = acpCommandLine(server.command);
    return line === undefined ? [] : [line.executable];
  });
}
