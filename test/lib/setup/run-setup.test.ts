/**
 * Setup through the real bubblewrap sandbox in a real git worktree: the commands' results stay in
 * the worktree for the agent, and the first failing command stops the setup with its own name and
 * the end of its output.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSandbox } from "../../../lib/sandbox/create-sandbox.ts";
import type { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { SETUP_LOG_TAIL_BYTES, runSetup } from "../../../lib/setup/run-setup.ts";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

let base: string;
let worktree: string;
let env: Record<string, string | undefined>;
let sandbox: Sandbox;

describeWithSandbox("runSetup", () => {
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "locus-setup-test-"));
    const runnerTemp = join(base, "_temp");
    worktree = join(runnerTemp, "locus-issue-1");
    await mkdir(worktree, { recursive: true });
    await mkdir(join(base, "home"), { recursive: true });
    execFileSync("git", ["init", "-q"], { cwd: worktree });
    env = { PATH: process.env["PATH"], HOME: join(base, "home"), RUNNER_TEMP: runnerTemp };
    sandbox = await createSandbox({ mode: "required", allow: [], env });
  });

  afterAll(async () => {
    await sandbox?.close();
    await rm(base, { recursive: true, force: true });
  });

  it("runs every command in the worktree, in order, and leaves their output there", async () => {
    const outcome = await runSetup({
      sandbox,
      commands: ["mkdir -p deps && echo installed > deps/marker", "cat deps/marker > deps/copy"],
      cwd: worktree,
      env,
      timeoutMs: 30_000,
    });
    expect(outcome).toEqual({
      ok: true,
      ran: ["mkdir -p deps && echo installed > deps/marker", "cat deps/marker > deps/copy"],
    });
    expect(await readFile(join(worktree, "deps", "copy"), "utf8")).toBe("installed\n");
  });

  it("stops at the first failing command, naming it with the end of its output", async () => {
    const outcome = await runSetup({
      sandbox,
      commands: [
        "true",
        `head -c ${SETUP_LOG_TAIL_BYTES * 2} /dev/zero | tr '\\0' x; echo; echo 'npm error missing lockfile' >&2; exit 3`,
        "touch never-ran",
      ],
      cwd: worktree,
      env,
      timeoutMs: 30_000,
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.ran).toEqual(["true"]);
    expect(outcome.command).toMatch(/exit 3$/);
    expect(outcome.exitCode).toBe(3);
    expect(outcome.logTail).toMatch(/npm error missing lockfile\n$/);
    expect(outcome.logTail.length).toBeLessThanOrEqual(SETUP_LOG_TAIL_BYTES);
    await expect(readFile(join(worktree, "never-ran"))).rejects.toThrow();
  });

  it("gives setup, and only setup, the download cache kept between runs", async () => {
    const cacheDir = join(base, "setup-cache");
    await mkdir(cacheDir);
    const outcome = await runSetup({
      sandbox,
      commands: ['mkdir -p "$npm_config_cache" && echo cached > "$npm_config_cache/entry"'],
      cwd: worktree,
      env,
      timeoutMs: 30_000,
      cacheDir,
    });
    expect(outcome.ok).toBe(true);
    expect(await readFile(join(cacheDir, "npm", "entry"), "utf8")).toBe("cached\n");
    // A command run as the agent's are (no cache given) neither reads the cache nor is pointed at it.
    const chunks: Buffer[] = [];
    const agent = await sandbox.exec(
      {
        file: "sh",
        args: ["-c", `echo "cache=$npm_config_cache"; cat ${JSON.stringify(join(cacheDir, "npm", "entry"))}`],
        timeoutMs: 30_000,
        headBytes: 0,
        tailBytes: 4000,
        onOutput: (_stream, chunk) => chunks.push(chunk),
      },
      { cwd: worktree, env },
    );
    expect(agent.exitCode).not.toBe(0);
    expect(Buffer.concat(chunks).toString("utf8")).toMatch(/^cache=\n/);
  });
});
