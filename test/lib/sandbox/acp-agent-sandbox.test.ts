/**
 * The ACP agent process and the stdio MCP servers run inside the run's sandbox, as the CLI
 * providers do: installed the way a user installs them (an npm package on PATH), each tries to
 * read a canary file outside the worktree, the parent's and the Action's environment, and a
 * canary port on the host's loopback. Inside, the file and the environments are out of sight and
 * the port is reachable only through the egress proxy; with `sandbox.mode: off` the same programs
 * reach all of it, which is what tells the two apart.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { AgentEvent } from "../../../lib/agent/events.ts";
import { connectMcpServers } from "../../../lib/agent/mcp/mcp-tools.ts";
import { createRunner } from "../../../lib/agent/create-runner.ts";
import type { ToolContext } from "../../../lib/agent/tool.ts";
import { runShellTool } from "../../../lib/agent/tools/run-shell.ts";
import { createSandbox } from "../../../lib/sandbox/create-sandbox.ts";
import type { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { installFixture } from "./fixtures/install-fixture.ts";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

const AGENT = join(import.meta.dirname, "..", "agent", "runners", "fixtures", "scripted-acp-agent.ts");
const PROBE_SERVER = join(import.meta.dirname, "fixtures", "probe-mcp-server.ts");
const SECRET = "ghs_actionSecretOfTheRunner0123456789";
const CANARY = "canary-file-contents-7f3a";
const PORT_CANARY = "canary-port-reached";

let base: string;
let home: string;
let worktree: string;
let canaryFile: string;
let path: string;
let canary: Server;
let canaryPort: number;
let sandbox: Sandbox;
let off: Sandbox;

/** The Action's environment as the runners get it: its secrets beside the agent's own credential. */
function actionEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: path,
    HOME: home,
    RUNNER_TEMP: join(base, "work", "_temp"),
    GITHUB_TOKEN: SECRET,
    INPUT_GITHUB_TOKEN: SECRET,
    ACTIONS_RUNTIME_TOKEN: SECRET,
    ...extra,
  };
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-acp-agent-sandbox-"));
  home = join(base, "home");
  canaryFile = join(base, "canary.txt");
  await mkdir(home);
  await writeFile(canaryFile, CANARY);
  const tools = join(base, "tools");
  const bin = await installFixture(tools, "scripted-acp-agent", AGENT);
  await installFixture(tools, "probe-mcp-server", PROBE_SERVER);
  path = `${bin}:${process.env["PATH"] ?? ""}`;
  canary = createServer((socket) => socket.end(PORT_CANARY));
  await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
  canaryPort = (canary.address() as { port: number }).port;
  sandbox = await createSandbox({
    mode: "required",
    // The loopback canary's port is allowed through the proxy: the proxy is then the only way to it.
    allow: [`127.0.0.1:${canaryPort}`],
    env: { PATH: path, HOME: home, RUNNER_TEMP: join(base, "work", "_temp") },
  });
  off = await createSandbox({ mode: "off", allow: [], env: {} });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => canary?.close(resolve));
  await rm(base, { recursive: true, force: true });
});

beforeEach(async () => {
  worktree = await mkdtemp(join(base, "worktree-"));
  execFileSync("git", ["init", "-q"], { cwd: worktree });
});

async function runAgent(withSandbox: Sandbox, events: AgentEvent[] = []): Promise<Record<string, string>> {
  const log = join(worktree, "agent-log.json");
  const runner = createRunner("acp", {
    env: actionEnv({ ANTHROPIC_API_KEY: "sk-ant-the-agents-own-key" }),
    shell: { allow: ["*"], deny: [], timeoutSeconds: 30 },
    acp: {
      command: ["scripted-acp-agent", "escape", log, canaryFile, String(canaryPort), String(process.pid)],
      env: ["ANTHROPIC_API_KEY"],
    },
    sandbox: withSandbox,
  });
  const result = await runner.execute({
    prompt: { system: "", context: "", task: "Probe." },
    cwd: worktree,
    model: "claude-sonnet-4-6",
    maxTurns: 5,
    onEvent: (event) => events.push(event),
  });
  expect(result.error ?? "").toBe("");
  expect(result.summary).toBe("Probed.");
  return (JSON.parse(await readFile(log, "utf8")) as { escape: Record<string, string> }).escape;
}

async function runProbeServer(withSandbox: Sandbox): Promise<Record<string, string>> {
  const toolset = await connectMcpServers(
    [{ name: "probe", command: "probe-mcp-server", env: ["PROBE_TOKEN"], required: false }],
    {
      cwd: worktree,
      env: actionEnv({ PROBE_TOKEN: "probe-servers-own-token" }),
      readOnly: false,
      sandbox: withSandbox,
    },
  );
  try {
    expect(toolset.failures).toEqual([]);
    const tool = toolset.tools.find((candidate) => candidate.name === "mcp__probe__probe");
    const result = await tool?.run(
      { canaryFile, canaryPort, hostPid: process.pid },
      {
        cwd: worktree,
        signal: new AbortController().signal,
        shell: { allow: ["*"], deny: [], timeoutSeconds: 30 },
        hooks: [],
        env: {},
        onQuestion: () => undefined,
      },
    );
    expect(result?.isError).toBe(false);
    return JSON.parse(result?.content ?? "{}") as Record<string, string>;
  } finally {
    await toolset.close();
  }
}

/** What a test the agent runs plants for the next `npx`-launched program that shares its home. */
const PLANT_NPMRC = `printf 'script-shell=/tmp/evil.sh\\nnode-options=--require=/tmp/evil.js\\n' > ~/.npmrc; ls ~/.npmrc`;

function shellContext(withSandbox: Sandbox): ToolContext {
  return {
    cwd: worktree,
    signal: new AbortController().signal,
    shell: { allow: ["*"], deny: [], timeoutSeconds: 30 },
    hooks: [],
    env: actionEnv({}),
    onQuestion: () => undefined,
    sandbox: withSandbox,
  };
}

/** What every probe from inside the sandbox must show. */
function expectConfined(seen: Record<string, string>, ownName: string, ownValue: string): void {
  expect(seen["startedIn"]).toBe("/home/locus");
  expect(seen["canary"]).toBe("error: ENOENT");
  expect(seen["hostEnviron"]).toMatch(/^error: /);
  expect(seen["parentEnviron"]).not.toContain(SECRET);
  expect(seen["direct"]).toMatch(/^error: /);
  expect(seen["viaProxy"]).toBe(`200: ${PORT_CANARY}`);
  expect(seen["notAllowed"]).toMatch(/^403/);
  const environment = JSON.parse(seen["environment"] ?? "{}") as Record<string, string>;
  expect(environment[ownName]).toBe(ownValue);
  expect(environment["HOME"]).toBe("/home/locus");
  expect(JSON.stringify(environment)).not.toContain(SECRET);
  expect(Object.keys(environment).filter((name) => name.startsWith("INPUT_") || name === "USER")).toEqual([]);
}

describeWithSandbox("the ACP agent and stdio MCP servers in the sandbox", () => {
  it("runs the ACP agent inside: no canary file, no parent environment, the loopback only through the proxy", async () => {
    const before = sandbox.refused().find((refusal) => refusal.host === "not-allowed.example")?.count ?? 0;

    expectConfined(await runAgent(sandbox), "ANTHROPIC_API_KEY", "sk-ant-the-agents-own-key");

    expect(sandbox.refused().find((refusal) => refusal.host === "not-allowed.example")?.count).toBe(
      before + 1,
    );
  });

  it("starts a stdio MCP server inside, under the same egress allowlist", async () => {
    expectConfined(await runProbeServer(sandbox), "PROBE_TOKEN", "probe-servers-own-token");
  });

  it("gives each its own fresh home: a ~/.npmrc the agent's shell planted is not there, npm reads no user config", async () => {
    const planted = await runShellTool.run({ command: PLANT_NPMRC }, shellContext(sandbox));
    expect(planted.content).toContain("/home/locus/.npmrc");

    for (const seen of [await runAgent(sandbox), await runProbeServer(sandbox)]) {
      expect(seen["npmrc"]).toBe("error: ENOENT");
      const environment = JSON.parse(seen["environment"] ?? "{}") as Record<string, string>;
      expect(environment).toMatchObject({
        npm_config_userconfig: "/dev/null",
        XDG_CONFIG_HOME: "/home/locus/.config",
        GIT_CONFIG_GLOBAL: "/dev/null",
      });
    }
  });

  it("reports a server that cannot start inside once and goes on", async () => {
    const toolset = await connectMcpServers(
      [
        { name: "missing", command: "no-such-mcp-server", env: [], required: false },
        { name: "planted", command: "./planted-server", env: [], required: true },
      ],
      { cwd: worktree, env: actionEnv({}), readOnly: false, sandbox },
    );
    await toolset.close();

    expect(toolset.tools).toEqual([]);
    expect(toolset.failures.map((failure) => [failure.server, failure.required])).toEqual([
      ["missing", false],
      ["planted", true],
    ]);
    expect(toolset.failures[1]?.message).toContain("is a relative path");
  });

  it("with sandbox.mode off runs both as before, and the ACP runner says so", async () => {
    const events: AgentEvent[] = [];
    await runShellTool.run({ command: PLANT_NPMRC }, shellContext(off));
    expect(await readFile(join(home, ".npmrc"), "utf8")).toContain("script-shell");
    const agent = await runAgent(off, events);
    const server = await runProbeServer(off);

    for (const seen of [agent, server]) {
      expect(seen["canary"]).toBe(CANARY);
      // Unconfined, the shell's home is the runner's; the programs still have their own.
      expect(seen["npmrc"]).toBe("error: ENOENT");
      expect(seen["direct"]).toBe(`connected: ${PORT_CANARY}`);
      // Still no secret in its own environment: the scrubbed environment of before.
      expect(seen["environment"]).not.toContain(SECRET);
    }
    expect(events).toContainEqual({
      type: "warning",
      message:
        "sandbox.mode is off: the ACP agent and the MCP servers it starts run unsandboxed, with the runner's files and network",
    });
  });
});
