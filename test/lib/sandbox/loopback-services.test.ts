/**
 * A service on the runner's loopback (a service container's published port, a database the job
 * started) that the allowlist names as `host:port`: a client inside the sandbox that knows nothing
 * of proxies reaches it on the same port of the sandbox's own loopback, forwarded through the
 * egress proxy; a port the allowlist does not name stays unreachable. Real bubblewrap, real sockets.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "../../../lib/sandbox/create-sandbox.ts";
import { loopbackServices } from "../../../lib/sandbox/host-patterns.ts";
import type { Sandbox } from "../../../lib/sandbox/sandbox.ts";
import { describeWithSandbox } from "../../needs-bubblewrap.ts";

/** A line-echo service: answers `pong <line>` to each line. */
function startService(): Promise<Server> {
  const server = createServer((socket) => {
    socket.setEncoding("utf8");
    socket.on("data", (line: string) => socket.write(`pong ${line.trim()}\n`));
    socket.on("error", () => undefined);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

/** A client in the sandbox: connects to 127.0.0.1:port, says `ping`, prints what came back or the error code. */
const CLIENT = `const s = require("node:net").connect(Number(process.argv[1]), "127.0.0.1");
s.setEncoding("utf8");
s.on("connect", () => s.write("ping\\n"));
s.on("data", (d) => { process.stdout.write(d); s.end(); });
s.on("error", (e) => { process.stdout.write("error " + e.code); });`;

describe("the loopback services an allowlist names", () => {
  it("are the rules with a loopback host and a port, once per port, never the relay's own", () => {
    expect(
      loopbackServices(
        [
          "registry.npmjs.org",
          "127.0.0.1:5432",
          "localhost:6379",
          "localhost",
          "[::1]:8080",
          "127.0.0.1:5432",
          "127.0.0.1:3128",
          "example.com:5432",
        ],
        3128,
      ),
    ).toEqual([
      { host: "127.0.0.1", port: 5432 },
      { host: "localhost", port: 6379 },
      { host: "[::1]", port: 8080 },
    ]);
  });
});

describeWithSandbox("a service on the runner's loopback", () => {
  let base: string;
  let worktree: string;
  let named: Server;
  let other: Server;
  let sandbox: Sandbox;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "locus-loopback-services-"));
    worktree = join(base, "worktree");
    await mkdir(worktree);
    execFileSync("git", ["init", "-q"], { cwd: worktree });
    named = await startService();
    other = await startService();
    sandbox = await createSandbox({
      mode: "required",
      allow: [`127.0.0.1:${portOf(named)}`],
      env: { PATH: process.env["PATH"] },
    });
  });

  afterAll(async () => {
    await sandbox?.close();
    named?.close();
    other?.close();
    await rm(base, { recursive: true, force: true });
  });

  async function clientTo(port: number): Promise<string> {
    const chunks: Buffer[] = [];
    await sandbox.exec(
      {
        file: "node",
        args: ["-e", CLIENT, String(port)],
        timeoutMs: 20_000,
        headBytes: 1 << 16,
        tailBytes: 1 << 16,
        onOutput: (_stream, chunk) => chunks.push(chunk),
      },
      { cwd: worktree, env: { PATH: process.env["PATH"] } },
    );
    return Buffer.concat(chunks).toString("utf8");
  }

  it("is reached on its port by a client that uses no proxy", async () => {
    expect(await clientTo(portOf(named))).toBe("pong ping\n");
  });

  it("is not reached on a port the allowlist does not name", async () => {
    expect(await clientTo(portOf(other))).toBe("error ECONNREFUSED");
  });
});
