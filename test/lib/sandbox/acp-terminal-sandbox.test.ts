/**
 * An ACP agent's terminals are Locus's shell by another door: they run in the run's sandbox, so a
 * command the agent starts there sees the same private home and none of the runner's files. The
 * command hooks around them and around `run_shell` run there too.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAcpTerminals } from "../../../lib/agent/runners/acp-terminals.ts";
import type { AgentHook, ToolContext } from "../../../lib/agent/tool.ts";
import { runShellTool } from "../../../lib/agent/tools/run-shell.ts";
import { createSandbox } from "../../../lib/sandbox/create-sandbox.ts";
import type { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

const SECRET = "ghs_acpTerminalSecret0123456789abcdef";
let base: string;
let worktree: string;
let home: string;
let sandbox: Sandbox;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-acp-terminal-"));
  home = join(base, "home");
  worktree = join(base, "work", "_temp", "locus-issue-1");
  await mkdir(home, { recursive: true });
  await mkdir(worktree, { recursive: true });
  await writeFile(join(home, ".secret"), SECRET);
  sandbox = await createSandbox({
    mode: "required",
    allow: [],
    env: { PATH: process.env["PATH"], HOME: home, RUNNER_TEMP: join(base, "work", "_temp") },
  });
});

afterAll(async () => {
  await sandbox.close();
  await rm(base, { recursive: true, force: true });
});

function contextWith(withSandbox: boolean, hooks: readonly AgentHook[] = []): ToolContext {
  return {
    cwd: worktree,
    signal: new AbortController().signal,
    shell: { allow: ["*"], deny: [], timeoutSeconds: 30 },
    hooks,
    env: { PATH: process.env["PATH"] ?? "", HOME: home },
    onQuestion: () => undefined,
    ...(withSandbox ? { sandbox } : {}),
  };
}

async function runInTerminal(context: ToolContext, command: string, cwd?: string): Promise<string> {
  const terminals = createAcpTerminals(context, { readOnly: false, onRefused: () => undefined });
  const { terminalId } = await terminals.create({
    sessionId: "s",
    command: "bash",
    args: ["-c", command],
    ...(cwd === undefined ? {} : { cwd }),
  });
  await terminals.waitForExit({ sessionId: "s", terminalId });
  return terminals.output({ sessionId: "s", terminalId }).output;
}

describeWithSandbox("ACP terminals", () => {
  it("run in the sandbox: the runner's home and its secret are out of sight", async () => {
    const command = `cat ${join(home, ".secret")} 2>&1; echo "home=$HOME"`;
    const inside = await runInTerminal(contextWith(true), command);
    expect(inside).not.toContain(SECRET);
    expect(inside).not.toContain(`home=${home}`);
    // The same command outside the sandbox does read it: the test can tell the two apart.
    expect(await runInTerminal(contextWith(false), command)).toContain(SECRET);
  });

  it("run their command hooks in the sandbox too, as run_shell's", async () => {
    const peek = `cat ${join(home, ".secret")} 2>&1; echo "home=$HOME"`;
    const hooks: AgentHook[] = [
      { when: "before-command", command: peek },
      { when: "after-command", command: peek },
    ];
    const terminal = await runInTerminal(contextWith(true, hooks), "echo ran");
    const shell = (await runShellTool.run({ command: "echo ran" }, contextWith(true, hooks))).content;

    for (const output of [terminal, shell]) {
      expect(output).toContain("ran\n");
      expect(output).toContain("before-command hook");
      expect(output).toContain("after-command hook");
      expect(output).not.toContain(SECRET);
      expect(output).not.toContain(`home=${home}`);
    }
    expect(await runInTerminal(contextWith(false, hooks), "echo ran")).toContain(SECRET);
  });
});

describeWithSandbox("an ACP terminal's requested directory", () => {
  /** A host directory of the runner's, outside the worktree, with something to steal in it. */
  let hostDir: string;
  beforeAll(async () => {
    hostDir = join(base, "runner-secrets");
    await mkdir(hostDir, { recursive: true });
    await writeFile(join(hostDir, "credentials"), SECRET);
  });

  it("starts the command there, with the worktree bound as before", async () => {
    await mkdir(join(worktree, "pkg"), { recursive: true });
    const out = await runInTerminal(contextWith(true), "pwd; touch made-here", join(worktree, "pkg"));
    expect(out.trim()).toBe(join(worktree, "pkg"));
    expect(await readFile(join(worktree, "pkg", "made-here"), "utf8")).toBe("");
    expect(await runInTerminal(contextWith(true), "pwd", "pkg")).toBe(`${join(worktree, "pkg")}\n`);
  });

  it("never binds a host directory a .git file there names", async () => {
    // A linked worktree's .git file, planted by the agent: `gitdir:` the runner's own directory.
    await mkdir(join(worktree, "nested"), { recursive: true });
    await writeFile(join(worktree, "nested", ".git"), `gitdir: ${hostDir}\n`);
    const out = await runInTerminal(
      contextWith(true),
      `cat ${join(hostDir, "credentials")} 2>&1; ls ${hostDir} 2>&1; echo done`,
      join(worktree, "nested"),
    );
    expect(out).toContain("done");
    expect(out).not.toContain(SECRET);
    expect(out).toContain("No such file or directory");
  });

  it("is refused outside the worktree, through a link that leads out, or in .git", async () => {
    await symlink(hostDir, join(worktree, "out"));
    const refusals: string[] = [];
    const terminals = createAcpTerminals(contextWith(true), {
      readOnly: false,
      onRefused: (_command, reason) => refusals.push(reason),
    });
    for (const cwd of [hostDir, join(worktree, "out"), "../..", join(worktree, ".git")]) {
      await expect(
        terminals.create({ sessionId: "s", command: "bash", args: ["-c", "ls"], cwd }),
        cwd,
      ).rejects.toThrow(/not a directory inside the worktree/);
    }
    expect(refusals).toHaveLength(4);
  });

  it("swapped for a link after the check, leads nowhere the sandbox does not already show", async () => {
    // What a race would leave: the directory the check saw is now a link to the runner's directory.
    await symlink(hostDir, join(worktree, "swapped"));
    const wrapped = await sandbox.wrap("bash", ["-c", "pwd; cat credentials; touch planted"], {
      cwd: worktree,
      env: { PATH: process.env["PATH"] ?? "" },
      chdir: join(worktree, "swapped"),
    });
    const ran = spawnSync(wrapped.file, [...wrapped.args], {
      cwd: wrapped.cwd,
      env: wrapped.env,
      encoding: "utf8",
    });
    expect(`${ran.stdout}${ran.stderr}`).not.toContain(SECRET);
    expect(ran.status).not.toBe(0);
    expect(await readdir(hostDir)).toEqual(["credentials"]);
  });
});
