/**
 * Config `agent.mcpServers` in each CLI's own MCP configuration. No secret goes on the command
 * line (where `ps` shows it): Claude Code's `--mcp-config` names them as `${VAR}`, which it
 * expands from its environment, and Codex forwards them by name (`env_vars`,
 * `bearer_token_env_var`); the runner adds those variables to the CLI's environment.
 */
import type { McpServerSettings } from "../mcp/mcp-server-settings.ts";
import { acpCommandLine } from "./acp-command.ts";

/** The environment variables the CLI must hold for its MCP servers. */
export function mcpSecretNames(servers: readonly McpServerSettings[]): string[] {
  return [
    ...new Set(servers.flatMap((server) => [...server.env, ...(server.bearer ? [server.bearer] : [])])),
  ];
}

/** `--mcp-config <json>` for Claude Code, or nothing when no server is configured. */
export function claudeMcpArgs(servers: readonly McpServerSettings[]): string[] {
  if (servers.length === 0) return [];
  const mcpServers: Record<string, unknown> = {};
  for (const server of servers) {
    const line = acpCommandLine(server.command);
    mcpServers[server.name] =
      line === undefined
        ? {
            type: "http",
            url: server.url,
            headers: server.bearer ? { Authorization: `Bearer \${${server.bearer}}` } : {},
          }
        : {
            command: line.executable,
            args: line.args,
            env: Object.fromEntries(server.env.map((name) => [name, `\${${name}}`])),
          };
  }
  return ["--mcp-config", JSON.stringify({ mcpServers })];
}

/** `-c mcp_servers.<name>.<key>=<TOML value>` overrides for `codex exec` (JSON strings and arrays are TOML too). */
export function codexMcpArgs(servers: readonly McpServerSettings[]): string[] {
  return servers.flatMap((server) => {
    const line = acpCommandLine(server.command);
    const set = (key: string, value: unknown) => [
      "-c",
      `mcp_servers.${server.name}.${key}=${JSON.stringify(value)}`,
    ];
    if (line === undefined) {
      return [
        ...set("url", server.url),
        ...(server.bearer ? set("bearer_token_env_var", server.bearer) : []),
      ];
    }
    return [
      ...set("command", line.executable),
      ...set("args", line.args),
      ...(server.env.length > 0 ? set("env_vars", server.env) : []),
    ];
  });
}
