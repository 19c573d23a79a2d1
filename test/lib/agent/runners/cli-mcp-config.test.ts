import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { McpServerSettings } from "../../../../lib/agent/mcp/mcp-server-settings.ts";
import { createRunner } from "../../../../lib/agent/create-runner.ts";
import type { Provider } from "../../../../lib/agent/runner.ts";
import { installFakeCli } from "./fake-cli.ts";

const SERVERS: McpServerSettings[] = [
  { name: "docs", command: "npx -y @acme/docs-mcp", env: ["DOCS_TOKEN"], required: false },
  { name: "search", url: "https://mcp.example.com/mcp", env: [], bearer: "SEARCH_TOKEN", required: false },
];

let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "locus-cli-mcp-"));
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function run(provider: Provider, name: string, fixture: string) {
  const cli = await installFakeCli({ name, version: "1.0.0", fixture, cwd });
  const runner = createRunner(provider, {
    env: {
      PATH: cli.path,
      ANTHROPIC_API_KEY: "sk-ant-cli",
      OPENAI_API_KEY: "sk-openai",
      DOCS_TOKEN: "docs-secret-value",
      SEARCH_TOKEN: "search-secret-value",
      GITHUB_TOKEN: "ghs_notForTheCli0123456789",
    },
    shell: { allow: ["*"], deny: [], timeoutSeconds: 60 },
    mcpServers: SERVERS,
  });
  await runner.execute({
    prompt: { system: "", context: "", task: "Do it" },
    cwd,
    model: "claude-sonnet-4-6",
    maxTurns: 5,
  });
  return { args: await cli.args(), env: await cli.env() };
}

describe("MCP servers in the CLIs' own configuration", () => {
  it("gives Claude Code --mcp-config naming the secrets, which reach its environment and not its arguments", async () => {
    const { args, env } = await run("claude-code", "claude", "claude-code-stream.jsonl");

    const config = args[args.indexOf("--mcp-config") + 1] ?? "";
    expect(JSON.parse(config)).toEqual({
      mcpServers: {
        docs: { command: "npx", args: ["-y", "@acme/docs-mcp"], env: { DOCS_TOKEN: "${DOCS_TOKEN}" } },
        search: {
          type: "http",
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: "Bearer ${SEARCH_TOKEN}" },
        },
      },
    });
    expect(args.join(" ")).not.toContain("secret-value");
    expect(env).toContain("DOCS_TOKEN=docs-secret-value");
    expect(env).toContain("SEARCH_TOKEN=search-secret-value");
    expect(env).not.toContain("GITHUB_TOKEN");
  });

  it("gives Codex -c mcp_servers overrides that forward the secrets by name", async () => {
    const { args, env } = await run("codex", "codex", "codex-exec.jsonl");

    const overrides = args.flatMap((arg, index) => (args[index - 1] === "-c" ? [arg] : []));
    expect(overrides).toEqual([
      'mcp_servers.docs.command="npx"',
      'mcp_servers.docs.args=["-y","@acme/docs-mcp"]',
      'mcp_servers.docs.env_vars=["DOCS_TOKEN"]',
      'mcp_servers.search.url="https://mcp.example.com/mcp"',
      'mcp_servers.search.bearer_token_env_var="SEARCH_TOKEN"',
    ]);
    expect(args.at(-1)).toBe("-");
    expect(env).toContain("DOCS_TOKEN=docs-secret-value");
  });
});
