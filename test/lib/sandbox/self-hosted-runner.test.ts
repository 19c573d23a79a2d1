/**
 * A self-hosted runner keeps its registration and credentials (`.runner`, `.credentials`,
 * `.credentials_rsaparams`) in the directory it was installed in, and the Action runs on the
 * runner's own node, `<runner>/externals/node<N>/bin/node`. Installed under a directory the
 * sandbox binds (`/opt`, a toolchain directory on PATH) with its work folder moved elsewhere,
 * the runner's directory must still be out of sight, and its node still run inside.
 */
import { execFileSync } from "node:child_process";
import { copyFile, link, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { bwrapArgs } from "../../../lib/sandbox/bwrap-args.ts";
import { createSandbox } from "../../../lib/sandbox/create-sandbox.ts";
import { hostMounts } from "../../../lib/sandbox/sandbox-mounts.ts";
import type { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

const CREDENTIALS = '{"scheme":"OAuth","data":{"clientId":"canary-runner-credential-5e1f"}}';

let base: string;
let tools: string;
let runner: string;
let runnerNode: string;
let worktree: string;
let sandbox: Sandbox;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-self-hosted-"));
  // A directory the sandbox binds (here a toolchain directory on PATH), the runner installed in it.
  tools = join(base, "srv");
  runner = join(tools, "actions-runner");
  const nodeDir = join(runner, "externals", "node24", "bin");
  await mkdir(nodeDir, { recursive: true });
  for (const file of [".runner", ".credentials", ".credentials_rsaparams"])
    await writeFile(join(runner, file), CREDENTIALS);
  runnerNode = join(nodeDir, "node");
  // The runner's own node: a hard link keeps its path (a symlink would resolve elsewhere).
  await link(realpathSync(process.execPath), runnerNode).catch(() =>
    copyFile(realpathSync(process.execPath), runnerNode),
  );
  // The work folder moved out of the runner's directory (`config.sh --work`).
  const temp = join(base, "work", "_temp");
  worktree = join(temp, "locus-issue-1");
  await mkdir(worktree, { recursive: true });
  await mkdir(join(base, "home"), { recursive: true });
  sandbox = await createSandbox({
    mode: "required",
    allow: [],
    env: { PATH: `${tools}:${process.env["PATH"] ?? ""}`, HOME: join(base, "home"), RUNNER_TEMP: temp },
    node: runnerNode,
  });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(base, { recursive: true, force: true });
});

async function inside(script: string): Promise<string> {
  const wrapped = await sandbox.wrap("/bin/sh", ["-c", script], {
    cwd: worktree,
    env: { PATH: "/usr/bin:/bin" },
  });
  return execFileSync(wrapped.file, [...wrapped.args], {
    env: wrapped.env,
    cwd: wrapped.cwd,
    encoding: "utf8",
  });
}

describeWithSandbox("a self-hosted runner's own directory", () => {
  it("is out of sight: no .runner, .credentials or .credentials_rsaparams", async () => {
    const out = await inside(`ls -a ${runner} 2>&1; cat ${join(runner, ".credentials")} 2>&1; echo done`);
    expect(out).toContain("done");
    expect(out).not.toContain("canary-runner-credential");
    expect(out).not.toContain(".credentials_rsaparams");
  });

  it("keeps the runner's node running inside", async () => {
    expect(await inside(`${runnerNode} -e 'console.log(1 + 1)'`)).toBe("2\n");
  });

  it("is masked where it sits inside a directory the sandbox binds, its node bound again on top", () => {
    // Its toolchain directory is no longer bound whole: it holds the runner's directory.
    const mounts = hostMounts(
      { PATH: tools, HOME: join(base, "home"), RUNNER_TEMP: join(base, "work", "_temp") },
      runnerNode,
    );
    expect(mounts.readOnly).not.toContain(tools);
    // Under /opt (bound whole), the runner's directory is a tmpfs and its node is bound after it.
    const args = bwrapArgs(
      {
        readOnly: ["/usr", "/opt"],
        masked: ["/opt/actions-runner"],
        unmasked: ["/opt/actions-runner/externals/node24/bin"],
        symlinks: [],
        tmp: { source: "/host/tmp", dest: "/tmp" },
        home: { source: "/host/home", dest: "/home/locus" },
        worktree: "/work/issue-1",
        readOnlyGit: [],
      },
      ["true"],
    ).join(" ");
    expect(args).toContain(
      "--ro-bind /opt /opt --tmpfs /opt/actions-runner --ro-bind /opt/actions-runner/externals/node24/bin /opt/actions-runner/externals/node24/bin",
    );
  });
});
