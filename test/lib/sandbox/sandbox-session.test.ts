/**
 * The sandbox session: many commands in one bubblewrap sandbox, each as if it had the sandbox to
 * itself. Real bubblewrap, real processes; what a command left behind is looked for from the next
 * command inside and from the host's own /proc.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSandbox } from "../../../lib/sandbox/create-sandbox.ts";
import type { CommandOutcome, CommandRequest, Sandbox, WrapOptions } from "../../../lib/sandbox/sandbox.ts";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

let base: string;
let worktree: string;
let sandbox: Sandbox;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-session-test-"));
  worktree = join(base, "worktree");
  await mkdir(worktree);
  execFileSync("git", ["init", "-q"], { cwd: worktree });
  sandbox = await createSandbox({ mode: "required", allow: [], env: { PATH: process.env["PATH"] } });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(base, { recursive: true, force: true });
});

interface Ran extends CommandOutcome {
  readonly output: string;
}

async function sh(
  script: string,
  options: Partial<CommandRequest> & { wrap?: Partial<WrapOptions>; on?: Sandbox } = {},
): Promise<Ran> {
  const chunks: Buffer[] = [];
  const outcome = await (options.on ?? sandbox).exec(
    {
      file: "/bin/sh",
      args: ["-c", script],
      timeoutMs: 20_000,
      headBytes: 1 << 20,
      tailBytes: 1 << 20,
      onOutput: (_stream, chunk) => chunks.push(chunk),
      ...options,
    },
    { cwd: worktree, env: { PATH: process.env["PATH"] }, ...options.wrap },
  );
  return { ...outcome, output: Buffer.concat(chunks).toString("utf8") };
}

/** The command lines of every process the sandbox shows, as the next command sees them. */
const PROCESSES = "for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done";

/** Host processes whose command line names `text`. */
function hostProcessesNaming(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^[0-9]+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmdline.includes(text)) found.push(cmdline.replaceAll("\0", " "));
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}

describeWithSandbox("a sandbox session", () => {
  it("runs many commands in one sandbox, each with its exit code and output", async () => {
    const first = await sh("echo one; echo two >&2; exit 3");
    expect(first).toMatchObject({ exitCode: 3, timedOut: false, aborted: false, droppedBytes: 0 });
    expect(first.output).toBe("one\ntwo\n");
    const second = await sh("pwd; echo $HOME $TMPDIR");
    expect(second.output).toBe(`${worktree}\n/home/locus /tmp\n`);
    // Both ran in one sandbox: bubblewrap was started once for this worktree (it shows as two
    // processes, the one Locus started and the sandbox's PID 1).
    expect(hostProcessesNaming(worktree).filter((line) => line.includes("bwrap"))).toHaveLength(2);
  });

  it("kills the whole process group at the timeout, and nothing of it reaches the next command", async () => {
    const timed = await sh("sleep 301 & sleep 302 & sleep 303", { timeoutMs: 300, killGraceMs: 200 });
    expect(timed).toMatchObject({ timedOut: true, exitCode: 143 });
    expect((await sh(PROCESSES)).output).not.toMatch(/sleep 30/);
  });

  it("leaves nothing behind for the next command: no daemon, no /dev/shm file, no write on the root", async () => {
    const planted = await sh(
      "setsid sleep 311 & nohup sleep 312 >/dev/null 2>&1 & echo x > /dev/shm/planted; touch /planted 2>/dev/null || echo root read-only; echo kept > /tmp/kept",
    );
    expect(planted.output).toContain("root read-only");
    const next = await sh(`${PROCESSES}; ls /dev/shm; cat /tmp/kept`);
    expect(next.output).not.toMatch(/sleep 31/);
    expect(next.output).not.toContain("planted");
    // The run's private temp is the worktree's own, kept between commands as it always was.
    expect(next.output).toContain("kept");
  });

  it("gives each command its own environment", async () => {
    const first = await sh('echo "[$ONLY_FIRST]"', {
      wrap: { env: { ONLY_FIRST: "1" }, keep: ["ONLY_FIRST"] },
    });
    const second = await sh('echo "[$ONLY_FIRST]"');
    expect(first.output).toBe("[1]\n");
    expect(second.output).toBe("[]\n");
  });

  it("keeps the head and the tail of a flood of output and counts what it left out", async () => {
    const flood = await sh("head -c 300000 /dev/zero | tr '\\0' a; echo; echo end", {
      headBytes: 1000,
      tailBytes: 500,
    });
    expect(flood.output.length).toBe(1500);
    expect(flood.output.startsWith("a".repeat(1000))).toBe(true);
    expect(flood.output.endsWith("a\nend\n")).toBe(true);
    expect(flood.droppedBytes).toBe(300000 + 5 - 1500);
  });

  it("ends a command when its signal aborts", async () => {
    const controller = new AbortController();
    const outcome = await sandbox.exec(
      {
        file: "/bin/sh",
        args: ["-c", "echo started; sleep 30"],
        timeoutMs: 20_000,
        signal: controller.signal,
        headBytes: 100,
        tailBytes: 100,
        // Aborted once the command is surely running: it said so.
        onOutput: () => controller.abort(),
      },
      { cwd: worktree, env: { PATH: process.env["PATH"] } },
    );
    expect(outcome).toMatchObject({ aborted: true, timedOut: false, exitCode: 143 });
  });

  it("runs overlapping commands side by side, in sessions of their own", async () => {
    const [a, b] = await Promise.all([sh("echo a"), sh("echo b")]);
    expect(a.output).toBe("a\n");
    expect(b.output).toBe("b\n");
  });

  it("says a program that cannot start could not start", async () => {
    const chunks: Buffer[] = [];
    const outcome = await sandbox.exec(
      {
        file: "no-such-program",
        args: [],
        timeoutMs: 5_000,
        headBytes: 100,
        tailBytes: 100,
        onOutput: (_s, c) => chunks.push(c),
      },
      { cwd: worktree, env: { PATH: "/usr/bin:/bin" } },
    );
    expect(outcome.spawnError).toMatch(/ENOENT/);
  });

  it("reports an init that died as an error, not a hang, and the next command gets a fresh sandbox", async () => {
    await expect(sh("kill -KILL $PPID; sleep 30")).rejects.toThrow(/ended unexpectedly/);
    expect((await sh("echo again")).output).toBe("again\n");
  });

  it("sees a worktree removed and made again at the same path, never the old directory", async () => {
    const moving = join(base, "moving");
    await mkdir(moving);
    expect((await sh("echo old > here; cat here", { wrap: { cwd: moving } })).output).toBe("old\n");
    await rm(moving, { recursive: true });
    await mkdir(moving);
    expect((await sh("ls", { wrap: { cwd: moving } })).output).toBe("");
  });

  it("starts a session ahead when asked, and the first command uses it", async () => {
    const dir = join(base, "prepared");
    await mkdir(dir);
    sandbox.prepare({ cwd: dir, env: {} });
    sandbox.prepare({ cwd: dir, env: {} });
    expect((await sh("echo ready", { wrap: { cwd: dir } })).output).toBe("ready\n");
    // One sandbox for both requests and the command: bubblewrap's two processes.
    expect(hostProcessesNaming(dir)).toHaveLength(2);
  });

  it("tears everything down at close: no process, no private directory", async () => {
    const own = await createSandbox({ mode: "required", allow: [], env: { PATH: process.env["PATH"] } });
    const dir = join(base, "torn-down");
    await mkdir(dir);
    await sh("sleep 60 & echo ok", { on: own, wrap: { cwd: dir } });
    await sh("echo git", { on: own, wrap: { cwd: dir, offline: true } });
    const running = hostProcessesNaming(dir);
    // Two sandboxes (the agent's, and git's with no relay), each two bubblewrap processes.
    expect(running).toHaveLength(4);
    const privateTmp = /--bind (\S+) \/tmp /.exec(running[0]!)?.[1];
    expect(privateTmp && existsSync(privateTmp)).toBe(true);
    await own.close();
    expect(hostProcessesNaming(dir)).toEqual([]);
    expect(existsSync(privateTmp!)).toBe(false);
  });
});
