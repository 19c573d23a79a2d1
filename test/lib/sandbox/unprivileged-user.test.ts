/**
 * Root hides user-namespace restrictions (Ubuntu 24.04's AppArmor setting refuses them only to
 * unprivileged users, and the Actions runner is not root), so the sandbox also runs as `nobody`.
 * When the tests run as root this drops to nobody with setpriv; otherwise they already are one.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

const SECRET = "ghs_unprivilegedSecret0123456789abcdef";
const FIXTURE = join(import.meta.dirname, "fixtures", "sandbox-as-user.ts");

function asUnprivileged(): Record<string, string> {
  const env = { PATH: process.env["PATH"] ?? "", LOCUS_TEST_SECRET: SECRET, GITHUB_TOKEN: SECRET };
  const command =
    process.getuid?.() === 0
      ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", process.execPath, FIXTURE]
      : [process.execPath, FIXTURE];
  const [file = "", ...args] = command;
  const out = execFileSync(file, args, { env, encoding: "utf8", cwd: "/tmp", timeout: 60_000 });
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Record<string, string>;
}

describeWithSandbox("the sandbox as an unprivileged user", () => {
  it("is made, confines the shell, and shows nothing of the caller", () => {
    const results = asUnprivileged();
    expect(results["id"]).not.toMatch(/^0\n/);
    expect(results["write"]).toBe("ok\n[exit code 0]");
    expect(results["environ"]).not.toContain(SECRET);
    expect(results["home"]).toContain("No such file or directory");
    expect(results["git"]).toContain("Read-only file system");
    expect(results["sudo"]).toContain("refused");
    // The ACP agent runs there too, with its own credential and nothing of the caller's.
    const acp = results["acp"] as unknown as Record<string, string>;
    expect(acp).toMatchObject({ canary: "error: ENOENT" });
    expect(acp["environment"]).toContain("sk-ant-own");
    expect(acp["environment"]).not.toContain(SECRET);
    expect(acp["parentEnviron"]).not.toContain(SECRET);
    expect(acp["notAllowed"]).toMatch(/^403/);
  });
});
