/**
 * Locus's credential-carrying git reaches its remote only over https or a local path, and over plain
 * http only when the remote it read before the agent ran is on this machine (a GitHub on loopback,
 * such as the simulator): a remote elsewhere over http would send the token in the clear.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGitClient } from "../../../lib/git/git-client.ts";

const exec = promisify(execFile);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-git-protocols-"));
  await exec("git", ["init", "--quiet", "-b", "main"], { cwd: dir });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function clientFor(remoteUrl: string) {
  return createGitClient({
    cwd: dir,
    identity: { name: "locus[bot]", email: "locus[bot]@users.noreply.github.com" },
    env: { PATH: process.env["PATH"], HOME: dir },
    remoteUrl,
  });
}

describe("the protocols Locus's own git may use", () => {
  it("refuses plain http to a remote that is not on this machine, before any connection", async () => {
    await expect(clientFor("http://github.example/o/r.git").remoteBranches(["main"])).rejects.toThrow(
      /transport 'http' not allowed/,
    );
  });

  it("allows plain http to a loopback remote (it then fails only to connect: nothing listens there)", async () => {
    const attempt = clientFor("http://127.0.0.1:9/o/r.git").remoteBranches(["main"]);
    await expect(attempt).rejects.toThrow();
    await expect(attempt).rejects.not.toThrow(/not allowed/);
  });

  it("refuses ext:: and ssh remotes", async () => {
    await expect(clientFor("ext::sh -c touch% /tmp/x").remoteBranches(["main"])).rejects.toThrow(
      /not allowed/,
    );
    await expect(clientFor("ssh://git@github.example/o/r.git").remoteBranches(["main"])).rejects.toThrow(
      /not allowed/,
    );
  });
});
