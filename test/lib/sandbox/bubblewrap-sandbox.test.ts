import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { runShellTool } from "../../../lib/agent/tools/run-shell.ts";
import type { ToolContext } from "../../../lib/agent/tool.ts";
import { createSandbox } from "../../../lib/sandbox/create-sandbox.ts";
import type { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

const SECRET = "ghs_sandboxTestSecretValue0123456789";

let base: string;
let worktree: string;
let runnerTemp: string;
let home: string;
let sandbox: Sandbox;
let canary: Server;
let canaryPort: number;
let canaryHits = 0;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-sandbox-test-"));
  runnerTemp = join(base, "work", "_temp");
  home = join(base, "home");
  worktree = join(runnerTemp, "locus-issue-1");
  await mkdir(join(runnerTemp, "_runner_file_commands"), { recursive: true });
  await mkdir(join(base, "work", "_actions", "some", "action"), { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(join(home, ".secret"), SECRET);
  await writeFile(join(runnerTemp, "_runner_file_commands", "set_env_1"), "");
  await writeFile(join(base, "work", "_actions", "some", "action", "post.js"), "// post\n");
  await mkdir(worktree, { recursive: true });
  execFileSync("git", ["init", "-q"], { cwd: worktree });
  canary = createServer((socket) => {
    canaryHits += 1;
    socket.end("canary\n");
  });
  await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
  canaryPort = (canary.address() as { port: number }).port;
  sandbox = await createSandbox({
    mode: "required",
    allow: ["allowed.invalid"],
    env: { PATH: process.env["PATH"], HOME: home, RUNNER_TEMP: runnerTemp },
  });
});

afterAll(async () => {
  await sandbox?.close();
  canary?.close();
  await rm(base, { recursive: true, force: true });
});

function context(): ToolContext {
  return {
    cwd: worktree,
    signal: new AbortController().signal,
    shell: { allow: ["*"], deny: [], timeoutSeconds: 30 },
    hooks: [],
    env: {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      HOME: home,
      RUNNER_TEMP: runnerTemp,
      LANG: "C.UTF-8",
      GITHUB_TOKEN: SECRET,
      INPUT_GITHUB_TOKEN: SECRET,
    },
    sandbox,
    onQuestion: () => undefined,
  };
}

async function shell(command: string): Promise<string> {
  return (await runShellTool.run({ command }, context())).content;
}

describeWithSandbox("the bubblewrap sandbox around run_shell", () => {
  it("runs in the worktree, writes there, and keeps what it wrote", async () => {
    const out = await shell("pwd; echo made > made.txt; cat made.txt");
    expect(out).toBe(`${worktree}\nmade\n[exit code 0]`);
    expect(await readFile(join(worktree, "made.txt"), "utf8")).toBe("made\n");
  });

  it("passes only allowlisted variables, with a private HOME and TMPDIR", async () => {
    const out = await shell("env | sort");
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain("INPUT_");
    expect(out).not.toContain("RUNNER_TEMP");
    expect(out).toContain("HOME=/home/locus\n");
    expect(out).toContain("TMPDIR=/tmp\n");
  });

  it("shows no process outside the sandbox: /proc/$PPID/environ has no secret", async () => {
    const out = await shell("cat /proc/$PPID/environ | tr '\\0' '\\n'; ls /proc | grep -c '^[0-9]'");
    expect(out).not.toContain(SECRET);
    const processes = Number(out.trim().split("\n").at(-2));
    expect(processes).toBeLessThan(8);
  });

  it("hides the home directory, the runner's temp, file commands and other actions", async () => {
    const out = await shell(
      [
        `cat ${join(home, ".secret")}`,
        `ls ${join(runnerTemp, "_runner_file_commands")}`,
        `echo NODE_OPTIONS=--require=/tmp/x.js >> ${join(runnerTemp, "_runner_file_commands", "set_env_1")}`,
        `echo 'evil()' >> ${join(base, "work", "_actions", "some", "action", "post.js")}`,
        "echo done",
      ].join("; "),
    );
    expect(out).not.toContain(SECRET);
    expect(out).toContain("No such file or directory");
    expect(await readFile(join(runnerTemp, "_runner_file_commands", "set_env_1"), "utf8")).toBe("");
    expect(await readFile(join(base, "work", "_actions", "some", "action", "post.js"), "utf8")).toBe(
      "// post\n",
    );
  });

  it("makes the repository's git directory read-only: no hooks, remotes or config", async () => {
    const out = await shell(
      [
        "git config core.sshCommand 'touch /tmp/pwned'",
        "echo '[remote \"origin\"]\n\tpushurl = ext::sh -c touch% /tmp/pwned' >> .git/config",
        "echo 'touch /tmp/pwned' > .git/hooks/pre-push",
        "echo tried",
      ].join("; "),
    );
    expect(out).toContain("Read-only file system");
    const config = await readFile(join(worktree, ".git", "config"), "utf8");
    expect(config).not.toContain("sshCommand");
    expect(config).not.toContain("ext::");
    await expect(readFile(join(worktree, ".git", "hooks", "pre-push"), "utf8")).rejects.toThrow();
  });

  it("makes a linked worktree's .git file and git directory read-only too", async () => {
    const repo = join(base, "repo");
    const linked = join(runnerTemp, "locus-issue-2");
    execFileSync("git", ["init", "-q", repo]);
    execFileSync("git", [
      "-C",
      repo,
      "-c",
      "user.name=T",
      "-c",
      "user.email=t@e",
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "init",
    ]);
    execFileSync("git", ["-C", repo, "worktree", "add", "-q", linked]);
    const dotGit = await readFile(join(linked, ".git"), "utf8");
    const result = await runShellTool.run(
      {
        command: [
          "git status --short && echo status-ok",
          "echo 'gitdir: /tmp/evil' > .git",
          'echo /tmp/evil > "$(git rev-parse --git-dir)/commondir"',
          'echo "[core]" >> "$(git rev-parse --git-common-dir)/config"',
          "echo tried",
        ].join("; "),
      },
      { ...context(), cwd: linked },
    );
    expect(result.content).toContain("status-ok");
    expect(result.content.match(/Read-only file system/g)).toHaveLength(3);
    expect(await readFile(join(linked, ".git"), "utf8")).toBe(dotGit);
    expect(await readFile(join(repo, ".git", "config"), "utf8")).not.toMatch(/\[core\][^]*\[core\]/);
  });

  it("gives no new privileges: sudo and setuid binaries cannot raise them", async () => {
    const out = await shell(
      "sudo -n true 2>&1 || echo refused; cat /proc/self/status | grep -E '^(NoNewPrivs|CapEff)'",
    );
    expect(out).toContain("refused");
    expect(out).toMatch(/NoNewPrivs:\s+1/);
    expect(out).toMatch(/CapEff:\s+0+\n/);
  });

  it("cannot reach a server on the host's loopback directly", async () => {
    const before = canaryHits;
    const out = await shell(`(exec 3<>/dev/tcp/127.0.0.1/${canaryPort} && cat <&3) 2>&1 || echo unreachable`);
    expect(out).toContain("unreachable");
    expect(out).not.toContain("canary");
    expect(canaryHits).toBe(before);
  });

  it("ends everything the command started when it times out", async () => {
    const result = await runShellTool.run(
      { command: "sleep 4321 & sleep 4322", timeout_s: 1 },
      { ...context(), shell: { allow: ["*"], deny: [], timeoutSeconds: 1 } },
    );
    expect(result.summary).toContain("timed out");
    await vi.waitFor(
      () => expect(execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })).not.toMatch(/sleep 432[12]/),
      { timeout: 5_000, interval: 20 },
    );
  });

  it("refuses and counts hosts off the allowlist at the proxy, the canary included", async () => {
    const before = canaryHits;
    const script = (target: string) =>
      `printf 'CONNECT ${target} HTTP/1.1\\r\\nHost: ${target}\\r\\n\\r\\n' >&3; head -c 12 <&3; echo`;
    const out = await shell(
      [
        `exec 3<>/dev/tcp/127.0.0.1/3128; ${script(`127.0.0.1:${canaryPort}`)}`,
        `exec 3<>/dev/tcp/127.0.0.1/3128; ${script("example.com:443")}`,
        `exec 3<>/dev/tcp/127.0.0.1/3128; ${script("example.com:443")}`,
      ].join("\n"),
    );
    expect(out.match(/HTTP\/1.1 403/g)).toHaveLength(3);
    expect(canaryHits).toBe(before);
    expect(sandbox.refused()).toEqual([
      { host: "example.com", count: 2 },
      { host: `127.0.0.1:${canaryPort}`, count: 1 },
    ]);
  });
});

describeWithSandbox("a program that holds credentials (an ACP agent, an MCP server)", () => {
  it("starts outside the worktree, so the repository's launcher config and local bins are not what runs", async () => {
    // What a hostile repository plants for `npx`: a project .npmrc and a local bin of the package's name.
    await mkdir(join(worktree, "node_modules", ".bin"), { recursive: true });
    await writeFile(join(worktree, ".npmrc"), "script-shell=./evil.sh\n");
    await writeFile(join(worktree, "node_modules", ".bin", "agent"), "#!/bin/sh\necho PLANTED\n", {
      mode: 0o755,
    });
    const script = 'pwd; ls -a; PATH="./node_modules/.bin:$PATH"; command -v agent || echo "no local agent"';
    const wrapped = await sandbox.wrap("/bin/sh", ["-c", script], {
      cwd: worktree,
      env: { PATH: "/usr/bin:/bin", ANTHROPIC_API_KEY: SECRET },
      keep: ["ANTHROPIC_API_KEY"],
      startIn: "neutral",
    });
    const out = execFileSync(wrapped.file, [...wrapped.args], {
      env: wrapped.env,
      cwd: wrapped.cwd,
    }).toString();

    expect(out.split("\n")[0]).toBe("/home/locus");
    expect(out).not.toContain(".npmrc");
    expect(out).toContain("no local agent");
    expect(out).not.toContain("PLANTED");
  });

  it("gets a fresh home of its own: npm reads no ~/.npmrc the agent's shell planted, and no program sees another's", async () => {
    const program = async (script: string) => {
      const wrapped = await sandbox.wrap("/bin/sh", ["-c", script], {
        cwd: worktree,
        env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin" },
        startIn: "neutral",
        holdsCredentials: true,
      });
      return execFileSync(wrapped.file, [...wrapped.args], { env: wrapped.env, cwd: wrapped.cwd }).toString();
    };
    await shell("printf 'node-options=--require=/tmp/evil.js\\n' > ~/.npmrc");
    // The shell's own npm does read it: what the test tells apart.
    expect(await shell("npm config get node-options")).toContain("/tmp/evil.js");

    expect(await program("ls -A ~; npm config get node-options; echo 'node-options=--mine' > ~/.npmrc")).toBe(
      "null\n",
    );
    // The next program's home is a new one: nothing the first wrote.
    expect(await program("ls -A ~")).toBe("");
  });

  it("starts in the worktree for the agent's own commands, as before", async () => {
    const wrapped = await sandbox.wrap("/bin/sh", ["-c", "pwd"], {
      cwd: worktree,
      env: { PATH: "/usr/bin:/bin" },
    });
    const out = execFileSync(wrapped.file, [...wrapped.args], {
      env: wrapped.env,
      cwd: wrapped.cwd,
    }).toString();
    expect(out.trim()).toBe(worktree);
  });
});
