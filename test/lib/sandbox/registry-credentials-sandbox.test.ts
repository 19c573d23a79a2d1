/**
 * A private registry through the egress proxy, in the real bubblewrap sandbox: `npm install`
 * inside gets a package from a registry that refuses requests without the token, because the
 * proxy (in this process) adds the token; nothing inside — environment, worktree, home, temp,
 * any process's `/proc/<pid>/environ` or `cmdline` — holds it, another host never receives it,
 * and the proxy's refusal report never shows it. The registry stands on the runner's loopback,
 * named with its port (so the proxy speaks plain HTTP to it, as it speaks HTTPS to a real one).
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runShellTool } from "../../../lib/agent/tools/run-shell.ts";
import type { ToolContext } from "../../../lib/agent/tool.ts";
import { createSandbox } from "../../../lib/sandbox/create-sandbox.ts";
import { hostCredentials } from "../../../lib/sandbox/registry-credentials.ts";
import type { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { startPrivateRegistry, type PrivateRegistry } from "../../../sandbox/world/private-registry.ts";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

/** Split in two so that no command line in the sandbox ever carries the whole value. */
const HALVES = ["npm_privateRegistry", "Secret0123456789abc"] as const;
const SECRET = HALVES.join("");
const PACKAGE = "@locus-test/private-dep";

let base: string;
let worktree: string;
let registry: PrivateRegistry;
let other: Server;
let otherPort: number;
const otherSeen: (string | undefined)[] = [];
let sandbox: Sandbox;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-registry-auth-"));
  worktree = join(base, "worktree");
  await mkdir(worktree, { recursive: true });
  execFileSync("git", ["init", "-q"], { cwd: worktree });
  await writeFile(
    join(worktree, "package.json"),
    JSON.stringify({ name: "sample", version: "0.0.0", private: true }),
  );
  registry = await startPrivateRegistry({
    authorization: `Bearer ${SECRET}`,
    packageName: PACKAGE,
    main: 'module.exports = "from the private registry";\n',
  });
  other = createServer((req, res) => {
    otherSeen.push(req.headers.authorization);
    res.end("other\n");
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  otherPort = (other.address() as { port: number }).port;
  const rules = [{ host: `127.0.0.1:${registry.port}`, secret: "NPM_TOKEN", scheme: "bearer" as const }];
  sandbox = await createSandbox({
    mode: "required",
    // The registry is not on the allowlist: its credential allows it.
    allow: [`127.0.0.1:${otherPort}`],
    credentials: hostCredentials(rules, { NPM_TOKEN: SECRET }),
    env: { PATH: process.env["PATH"] },
  });
});

afterAll(async () => {
  await sandbox?.close();
  await registry?.close();
  other?.close();
  await rm(base, { recursive: true, force: true });
});

function context(): ToolContext {
  return {
    cwd: worktree,
    signal: new AbortController().signal,
    shell: { allow: ["*"], deny: [], timeoutSeconds: 120 },
    hooks: [],
    // As the runner gives the Action its input: the caller's environment holds it, the sandbox must not.
    env: {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      LANG: "C.UTF-8",
      "INPUT_REGISTRY-CREDENTIALS": JSON.stringify({ NPM_TOKEN: SECRET }),
    },
    sandbox,
    onQuestion: () => undefined,
  };
}

async function shell(command: string): Promise<string> {
  return (await runShellTool.run({ command }, context())).content;
}

/**
 * Looks for the secret (joined from its halves inside node only) in every process's environment
 * and command line, and in every file under the worktree, home and temp; prints what holds it.
 */
const SEARCH = String.raw`
const fs = require("node:fs");
const secret = process.argv[1] + process.argv[2];
const forms = [secret, Buffer.from(secret).toString("base64")];
const holds = (path) => { try { const text = fs.readFileSync(path, "latin1"); return forms.some((form) => text.includes(form)); } catch { return false; } };
const found = [];
for (const pid of fs.readdirSync("/proc").filter((name) => /^[0-9]+$/.test(name)))
  for (const file of ["environ", "cmdline"]) if (holds("/proc/" + pid + "/" + file)) found.push("/proc/" + pid + "/" + file);
const walk = (dir) => { let entries = []; try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const entry of entries) { const path = dir + "/" + entry.name;
    if (entry.isDirectory()) walk(path); else if (entry.isFile() && holds(path)) found.push(path); } };
for (const dir of [process.cwd(), process.env.HOME, process.env.TMPDIR]) walk(dir);
console.log("searched; found: " + JSON.stringify(found));
`;

describeWithSandbox("private registry credentials added by the egress proxy", () => {
  it("installs a package from the registry that refuses requests without the token", async () => {
    // NO_PROXY empty: the stand-in lives on 127.0.0.1, which the sandbox's NO_PROXY otherwise exempts.
    const out = await shell(
      `NO_PROXY= no_proxy= npm install --no-audit --no-fund --registry ${registry.url}/ ${PACKAGE} 2>&1; ` +
        `node -e 'console.log(require("${PACKAGE}"))'`,
    );
    expect(out).toContain("from the private registry");
    expect(registry.seen.length).toBeGreaterThanOrEqual(2);
    expect(registry.seen.every((header) => header === `Bearer ${SECRET}`)).toBe(true);
  });

  it("replaces an Authorization header the sandbox sends with the configured one", async () => {
    const before = registry.seen.length;
    const out = await shell(
      `curl -s --noproxy '' -H 'Authorization: Bearer guessed' ${registry.url}/${PACKAGE.replace("/", "%2f")}`,
    );
    expect(out).toContain('"dist-tags"');
    expect(registry.seen.slice(before)).toEqual([`Bearer ${SECRET}`]);
  });

  it("never sends the credential to another host", async () => {
    const out = await shell(`curl -s --noproxy '' http://127.0.0.1:${otherPort}/`);
    expect(out).toContain("other");
    expect(otherSeen).toEqual([undefined]);
  });

  it("leaves no trace of the credential in the sandbox's environment, files or /proc", async () => {
    const out = await shell(`env; node -e '${SEARCH}' ${HALVES[0]} ${HALVES[1]}`);
    expect(out).toContain("searched; found: []");
    expect(out).not.toContain(SECRET);
    expect(out).toContain("HOME=/home/locus");
  });

  it("keeps the credential out of what the proxy reports", async () => {
    await shell(`curl -s --noproxy '' http://refused.invalid/ || true`);
    const refused = JSON.stringify(sandbox.refused());
    expect(refused).toContain("refused.invalid");
    expect(refused).not.toContain(SECRET);
  });
});
