/**
 * MCP servers' tools for the built-in agent, through `@modelcontextprotocol/sdk`'s client: each
 * server is started (stdio, in the worktree, inside the run's sandbox under its egress allowlist,
 * with the sandbox's environment plus the secrets config names for it; its program found the way
 * an ACP agent's is, never in the worktree) or reached (Streamable HTTP), its tools listed and
 * offered to the model as `mcp__<server>__<tool>`, and each result bounded like the built-in
 * tools'. A server that fails to start is reported once and left out; the caller stops the task
 * if config marks it required.
 * Read-only runs get only the tools a server marks `readOnlyHint`.
 */
import { tmpdir } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import type { AgentTool, ToolResult } from "../tool.ts";
import { acpCommandLine } from "../runners/acp-command.ts";
import { withCredentials } from "../runners/cli-environment.ts";
import { actionBinDirs, findTrustedExecutable } from "../runners/trusted-executable.ts";
import { programFiles } from "../../sandbox/program-files.ts";
import type { Sandbox, WrappedCommand } from "../../sandbox/sandbox.ts";
import { errorResult } from "../tools/results.ts";
import { withWorktree, type McpServerSettings } from "./mcp-server-settings.ts";

/** Result text kept per call; the rest is cut with a mark, as `read_file` does. */
export const MCP_RESULT_MAX_CHARS = 100_000;
const CONNECT_TIMEOUT_MS = 30_000;
const STDERR_TAIL = 2_000;

export interface McpFailure {
  readonly server: string;
  readonly required: boolean;
  readonly message: string;
}

export interface McpToolset {
  readonly tools: readonly AgentTool[];
  readonly failures: readonly McpFailure[];
  close(): Promise<void>;
}

export interface McpConnectOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readOnly: boolean;
  readonly connectTimeoutMs?: number;
  /** stdio servers run inside it; absent (tests of the protocol alone), they run as they are. */
  readonly sandbox?: Sandbox;
}

/** Anthropic tool names allow letters, digits, `_` and `-`, at most 128 characters. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, 128);
}

/** A stdio server's command line: its program found outside the worktree, run in the sandbox. */
async function serverCommand(server: McpServerSettings, options: McpConnectOptions): Promise<WrappedCommand> {
  const line = acpCommandLine(server.command);
  if (line === undefined) throw new Error("it has no command");
  const found = await findTrustedExecutable(line.executable, {
    path: options.env["PATH"],
    untrusted: [options.cwd, options.env["GITHUB_WORKSPACE"]].filter((dir) => dir !== undefined),
    extraDirs: actionBinDirs(),
  });
  if (!found.found) throw new Error(found.reason);
  const env = withCredentials(options.env, server.env);
  // Started outside the repository, as an ACP agent is (WrapOptions.startIn).
  const args = withWorktree(line.args, options.cwd);
  if (options.sandbox === undefined) return { file: found.path, args, env, cwd: tmpdir() };
  return options.sandbox.wrap(found.path, args, {
    cwd: options.cwd,
    env,
    keep: server.env,
    readable: programFiles(found.path),
    startIn: "neutral",
    holdsCredentials: true,
  });
}

async function transportFor(
  server: McpServerSettings,
  options: McpConnectOptions,
  stderr: { tail: string },
): Promise<Transport> {
  if (server.url !== undefined) {
    const token = server.bearer === undefined ? undefined : options.env[server.bearer];
    return new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } },
    });
  }
  const command = await serverCommand(server, options);
  const transport = new StdioClientTransport({
    command: command.file,
    args: [...command.args],
    cwd: command.cwd,
    env: { ...command.env },
    // Piped, never inherited: a server's output must not reach the job log, where the runner reads commands.
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr.tail = (stderr.tail + chunk.toString("utf8")).slice(-STDERR_TAIL);
  });
  return transport;
}

type CallResult = Awaited<ReturnType<Client["callTool"]>>;

function resultText(result: CallResult): string {
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: unknown }[]) : [];
  const parts = content.map((block) =>
    block.type === "text" && typeof block.text === "string" ? block.text : `[${block.type} content omitted]`,
  );
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join("\n");
  if (text.length <= MCP_RESULT_MAX_CHARS) return text;
  return `${text.slice(0, MCP_RESULT_MAX_CHARS)}\n[… ${text.length - MCP_RESULT_MAX_CHARS} more characters not shown …]`;
}

const mcpInput = z.record(z.string(), z.unknown());

function toolFor(
  client: Client,
  server: string,
  tool: { name: string; description?: string | undefined; inputSchema: Record<string, unknown> },
  readOnly: boolean,
): AgentTool<typeof mcpInput> {
  const name = mcpToolName(server, tool.name);
  return {
    name,
    description: `${tool.description ?? tool.name} (MCP server ${server})`,
    // The server validates its own input; the model sees the server's schema.
    inputSchema: mcpInput,
    inputJsonSchema: tool.inputSchema,
    readOnly,
    async run(input, context): Promise<ToolResult> {
      const shown = `${server}/${tool.name}`;
      try {
        const result = await client.callTool({ name: tool.name, arguments: input }, undefined, {
          signal: context.signal,
          timeout: context.shell.timeoutSeconds * 1000,
        });
        const text = resultText(result);
        const failed = result.isError === true;
        return {
          content: text === "" ? "(no output)" : text,
          isError: failed,
          summary: `MCP ${shown} → ${failed ? "error" : `ok (${text.length} chars)`}`,
        };
      } catch (error) {
        return errorResult(`MCP ${shown} → failed`, `The MCP server failed: ${(error as Error).message}`);
      }
    },
  };
}

async function connectOne(
  server: McpServerSettings,
  options: McpConnectOptions,
): Promise<{ client: Client; tools: AgentTool[] }> {
  const stderr = { tail: "" };
  const client = new Client({ name: "locus", version: "1" });
  const timeout = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  try {
    await client.connect(await transportFor(server, options, stderr), { timeout });
    const listed = await client.listTools(undefined, { timeout });
    const tools = listed.tools
      .filter((tool) => !options.readOnly || tool.annotations?.readOnlyHint === true)
      .map(
        (tool) => toolFor(client, server.name, tool, tool.annotations?.readOnlyHint === true) as AgentTool,
      );
    return { client, tools };
  } catch (error) {
    await client.close().catch(() => undefined);
    const said = stderr.tail.trim();
    throw new Error(`${(error as Error).message}${said === "" ? "" : `: ${said}`}`, { cause: error });
  }
}

export async function connectMcpServers(
  servers: readonly McpServerSettings[],
  options: McpConnectOptions,
): Promise<McpToolset> {
  const settled = await Promise.allSettled(servers.map((server) => connectOne(server, options)));
  const clients: Client[] = [];
  const tools: AgentTool[] = [];
  const failures: McpFailure[] = [];
  settled.forEach((outcome, index) => {
    const server = servers[index];
    if (server === undefined) return;
    if (outcome.status === "fulfilled") {
      clients.push(outcome.value.client);
      tools.push(...outcome.value.tools);
    } else {
      const message = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
      failures.push({ server: server.name, required: server.required, message });
    }
  });
  return {
    tools,
    failures,
    close: async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    },
  };
}
