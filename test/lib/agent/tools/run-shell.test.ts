import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runShellTool } from "../../../../lib/agent/tools/run-shell.ts";
import { createWorktree, type TestWorktree } from "./worktree.ts";

let worktree: TestWorktree;
beforeEach(async () => {
  worktree = await createWorktree();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await worktree.cleanup();
});

/** A killed process may linger as a zombie until reaped; it no longer runs. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Polls until the process is gone: its pipes close a moment before the kernel marks it dead. */
async function expectKilled(pid: number | undefined): Promise<void> {
  expect(pid).toBeDefined();
  await vi.waitFor(() => expect(isRunning(pid ?? 0)).toBe(false), { timeout: 5_000, interval: 10 });
}

async function pidsIn(file: string): Promise<number[]> {
  const text = await readFile(path.join(worktree.root, file), "utf8");
  return text
    .split(/\s+/)
    .filter((word) => word !== "")
    .map(Number);
}

describe("run_shell", () => {
  it("runs in the worktree and reports the exit code", async () => {
    await worktree.write("hello.txt", "hi\n");
    const result = await runShellTool.run({ command: "cat hello.txt && pwd" }, worktree.context());
    expect(result).toEqual({
      content: `hi\n${worktree.root}\n[exit code 0]`,
      isError: false,
      summary: "Bash cat hello.txt && pwd → exit 0",
    });
  });

  it("interleaves stdout and stderr in order and marks a failing command", async () => {
    const result = await runShellTool.run(
      { command: "echo one; echo two >&2; echo three; exit 3" },
      worktree.context(),
    );
    expect(result).toEqual({
      content: "one\ntwo\nthree\n[exit code 3]",
      isError: true,
      summary: "Bash echo one; echo two >&2; echo three; exit 3 → exit 3",
    });
  });

  it("says when there was no output and strips colour codes", async () => {
    expect((await runShellTool.run({ command: "true" }, worktree.context())).content).toBe(
      "(no output)\n[exit code 0]",
    );
    const coloured = await runShellTool.run(
      { command: "printf '\\033[31mred\\033[0m\\n'" },
      worktree.context(),
    );
    expect(coloured.content).toBe("red\n[exit code 0]");
  });

  it("kills the whole process tree at the timeout", async () => {
    const started = Date.now();
    const result = await runShellTool.run(
      {
        command: "sleep 100 & echo $! > pids; sleep 100 & echo $! >> pids; echo $$ >> pids; wait",
        timeout_s: 1,
      },
      worktree.context(),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(result.summary).toBe(
      "Bash sleep 100 & echo $! > pids; sleep 100 & echo $! >> pids; echo $$ >> pids; wait → timed out after 1 s",
    );
    expect(result.content).toContain(
      "[The command timed out after 1 s and was killed with everything it started.",
    );
    const pids = await pidsIn("pids");
    expect(pids).toHaveLength(3);
    for (const pid of pids) await expectKilled(pid);
  });

  it("kills background processes left behind when the command exits", async () => {
    const result = await runShellTool.run(
      { command: "sleep 100 & echo $! > pids; echo started" },
      worktree.context(),
    );
    expect(result.content).toBe("started\n[exit code 0]");
    const [pid] = await pidsIn("pids");
    await expectKilled(pid);
  });

  it("stops when the run is aborted", async () => {
    const controller = new AbortController();
    const context = worktree.context({ signal: controller.signal });
    const running = runShellTool.run({ command: "echo ready; echo $$ > pids; sleep 100" }, context);
    // Abort once the command has really started and printed: the pid file appears after the output.
    await vi.waitFor(async () => expect(await pidsIn("pids")).toHaveLength(1), {
      timeout: 5_000,
      interval: 20,
    });
    controller.abort();
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.summary).toBe("Bash echo ready; echo $$ > pids; sleep 100 → aborted");
    expect(result.content).toContain("ready\n[The command aborted");
    const [pid] = await pidsIn("pids");
    await expectKilled(pid);
  });

  it("does not start a command when the run is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runShellTool.run(
      { command: "touch ran" },
      worktree.context({ signal: controller.signal }),
    );
    expect(result.isError).toBe(true);
    await expect(readFile(path.join(worktree.root, "ran"))).rejects.toThrow();
  });

  it("refuses denied commands with the matching pattern and runs nothing", async () => {
    const context = worktree.context();
    const push = await runShellTool.run({ command: "touch ran && git push origin main" }, context);
    expect(push).toEqual({
      content:
        'Refused by the repository\'s shell policy: "git push origin main" matches the denied pattern "git push*". The command was not run. Locus commits and pushes itself; use another command or finish and explain what you need.',
      isError: true,
      summary: "Bash touch ran && git push origin main → refused",
    });
    await expect(readFile(path.join(worktree.root, "ran"))).rejects.toThrow();
  });

  it("refuses commands outside the allowlist", async () => {
    const context = worktree.context({
      shell: { allow: ["npm test*", "echo *"], deny: [], timeoutSeconds: 30 },
    });
    const result = await runShellTool.run({ command: "echo ok; curl https://example.com" }, context);
    expect(result.isError).toBe(true);
    expect(result.content).toContain(
      '"curl https://example.com" matches none of the allowed patterns ("npm test*", "echo *")',
    );
    expect((await runShellTool.run({ command: "echo ok" }, context)).content).toBe("ok\n[exit code 0]");
  });

  it("runs with no secret in the environment", async () => {
    const secrets = {
      GITHUB_TOKEN: "ghs_fake1",
      GH_TOKEN: "fake2",
      ANTHROPIC_API_KEY: "sk-ant-fake3",
      ACTIONS_RUNTIME_TOKEN: "fake4",
      ACTIONS_ID_TOKEN_REQUEST_URL: "https://fake5",
      INPUT_GITHUB_TOKEN: "fake6",
      NPM_AUTH: "fake7",
      AWS_SECRET_ACCESS_KEY: "fake8",
      DB_PASSWORD: "fake9",
      my_private_thing: "fake10",
      GIT_CONFIG_VALUE_0: "AUTHORIZATION: basic fake11",
    };
    const base = worktree.context();
    const result = await runShellTool.run(
      { command: "env" },
      { ...base, env: { ...base.env, ...secrets, VISIBLE: "yes" } },
    );
    expect(result.content).toContain("VISIBLE=yes");
    expect(result.content).toContain("GIT_TERMINAL_PROMPT=0");
    expect(result.content).toContain("GIT_CONFIG_NOSYSTEM=1");
    expect(result.content).not.toMatch(/fake\d/);
  });

  it("keeps the head and tail of long output with a mark", async () => {
    const result = await runShellTool.run({ command: "seq 1 1000" }, worktree.context());
    const lines = result.content.split("\n");
    expect(lines.slice(0, 2)).toEqual(["1", "2"]);
    expect(lines[99]).toBe("100");
    expect(lines[100]).toBe("[… 800 lines cut …]");
    expect(lines[101]).toBe("901");
    expect(lines.at(-2)).toBe("1000");
    expect(lines.at(-1)).toBe("[exit code 0]");
  });

  it("bounds a flood of output without newlines", async () => {
    const result = await runShellTool.run(
      { command: "head -c 200000 /dev/zero | tr '\\0' x" },
      worktree.context(),
    );
    expect(result.content).toContain("[… 170000 characters cut …]");
    expect(result.content.length).toBeLessThan(31_000);
  });

  it("clamps timeout_s to the maximum", async () => {
    const result = await runShellTool.run({ command: "echo fast", timeout_s: 1e9 }, worktree.context());
    expect(result.content).toBe("fast\n[exit code 0]");
  });

  it("never writes a command's output to our stdout (workflow commands stay data)", async () => {
    const stdout = vi.spyOn(process.stdout, "write");
    const result = await runShellTool.run(
      { command: "echo '::add-mask::x'; echo '::stop-commands::tok'; echo '::set-output name=a::b'" },
      worktree.context(),
    );
    expect(result.content).toContain("::add-mask::x");
    const written = stdout.mock.calls.map((call) => String(call[0])).join("");
    expect(written).not.toContain("::add-mask::");
    expect(written).not.toContain("::stop-commands::");
    expect(written).not.toContain("::set-output");
  });
});
