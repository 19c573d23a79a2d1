/**
 * A CLI agent runs inside the sandbox as a whole process: it sees only its own model credential,
 * none of the Action's, and none of the runner's files.
 */
import { execFileSync } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRunner } from "../../../lib/agent/create-runner.ts";
import { createSandbox } from "../../../lib/sandbox/create-sandbox.ts";
import type { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

const FIXTURE = join(import.meta.dirname, "..", "agent", "runners", "fixtures", "claude-code-stream.jsonl");
let base: string;
let worktree: string;
let bin: string;
let home: string;
let sandbox: Sandbox;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-cli-sandbox-"));
  worktree = join(base, "worktree");
  bin = join(base, "bin");
  home = join(base, "home");
  await mkdir(worktree);
  await mkdir(bin);
  await mkdir(home);
  await writeFile(join(home, "credentials"), "ghs_homeSecret\n");
  execFileSync("git", ["init", "-q"], { cwd: worktree });
  await copyFile(FIXTURE, join(bin, "stream.jsonl"));
  // Records what it can see in the worktree (the only place it may write), then replays a stream.
  await writeFile(
    join(bin, "claude"),
    [
      "#!/usr/bin/env bash",
      `env > seen-env; cat ${join(home, "credentials")} > seen-home 2>&1; id -u > seen-uid`,
      "cat > /dev/null",
      `sed "s|__CWD__|$PWD|g" ${join(bin, "stream.jsonl")}`,
    ].join("\n"),
  );
  await chmod(join(bin, "claude"), 0o755);
  sandbox = await createSandbox({
    mode: "required",
    allow: ["api.anthropic.com"],
    env: { PATH: `${bin}:${process.env["PATH"] ?? ""}`, HOME: home },
  });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(base, { recursive: true, force: true });
});

describeWithSandbox("a CLI runner in the sandbox", () => {
  it("runs the CLI there with its own credential only", async () => {
    const runner = createRunner("claude-code", {
      env: {
        PATH: `${bin}:${process.env["PATH"] ?? ""}`,
        HOME: home,
        ANTHROPIC_API_KEY: "sk-ant-cli",
        GITHUB_TOKEN: "ghs_actionSecret",
        INPUT_GITHUB_TOKEN: "ghs_actionSecret",
      },
      shell: { allow: ["*"], deny: [], timeoutSeconds: 60 },
      sandbox,
    });
    const result = await runner.execute({
      prompt: { system: "", context: "", task: "Fix it" },
      cwd: worktree,
      model: "claude-sonnet-4-6",
      maxTurns: 5,
    });

    expect(result.error ?? "").toBe("");
    expect(result.success).toBe(true);
    const env = await readFile(join(worktree, "seen-env"), "utf8");
    expect(env).toContain("ANTHROPIC_API_KEY=sk-ant-cli\n");
    expect(env).toContain("HOME=/home/locus\n");
    expect(env).toContain("HTTPS_PROXY=http://127.0.0.1:3128\n");
    expect(env).not.toContain("ghs_actionSecret");
    expect(await readFile(join(worktree, "seen-home"), "utf8")).toContain("No such file or directory");
  });

  it("runs a CLI installed under the runner's home, which the sandbox hides, from its npm tree alone", async () => {
    // The reusable workflow's layout: `npm install --global --prefix ~/.locus-cli`, its bin on PATH.
    const prefix = join(home, ".locus-cli");
    const pkg = join(prefix, "lib", "node_modules", "fake-claude");
    await mkdir(pkg, { recursive: true });
    await mkdir(join(prefix, "bin"));
    await copyFile(FIXTURE, join(pkg, "stream.jsonl"));
    await writeFile(
      join(pkg, "cli.sh"),
      [
        "#!/usr/bin/env bash",
        `cat ${join(home, "credentials")} > seen-home-beside 2>&1`,
        "cat > /dev/null",
        'sed "s|__CWD__|$PWD|g" "$(dirname "$0")/stream.jsonl"',
      ].join("\n"),
    );
    await chmod(join(pkg, "cli.sh"), 0o755);
    await symlink(join("..", "lib", "node_modules", "fake-claude", "cli.sh"), join(prefix, "bin", "claude"));
    const path = `${join(prefix, "bin")}:${process.env["PATH"] ?? ""}`;
    const installed = await createSandbox({ mode: "required", allow: [], env: { PATH: path, HOME: home } });
    try {
      const runner = createRunner("claude-code", {
        env: { PATH: path, HOME: home, ANTHROPIC_API_KEY: "sk-ant-cli" },
        shell: { allow: ["*"], deny: [], timeoutSeconds: 60 },
        sandbox: installed,
      });
      const result = await runner.execute({
        prompt: { system: "", context: "", task: "Fix it" },
        cwd: worktree,
        model: "claude-sonnet-4-6",
        maxTurns: 5,
      });

      expect(result.error ?? "").toBe("");
      expect(result.success).toBe(true);
      // The rest of the home directory stays out of sight.
      expect(await readFile(join(worktree, "seen-home-beside"), "utf8")).toContain(
        "No such file or directory",
      );
    } finally {
      await installed.close();
    }
  });
});
