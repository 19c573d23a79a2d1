/**
 * The egress proxy itself, over its real Unix socket, with what a hostile process inside the
 * sandbox would send it: a port out of range, a request line that is not HTTP, an allowed host on
 * a port no rule names, and the runner's own loopback by every name. Each gets a 4xx (or, for a
 * name that resolves to loopback, a failed tunnel), nothing reaches the canary on the host's
 * loopback, and the proxy keeps serving.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const run = promisify(execFile);
const PROXY = join(import.meta.dirname, "fixtures", "egress-proxy-process.ts");
let dir: string;
let socketPath: string;
/** Two servers on the runner's loopback: one a rule names, one only a wildcard's port covers. */
const canaries: Server[] = [];
let canaryPort = 0;
let wildcardPort = 0;
let canaryHits = 0;
let proxy: ChildProcess;
let proxyOutput = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-egress-"));
  socketPath = join(dir, "proxy.sock");
  for (let i = 0; i < 2; i++) {
    const canary = createServer((socket) => {
      canaryHits += 1;
      socket.end("canary\n");
    });
    await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
    canaries.push(canary);
  }
  const portOf = (canary: Server | undefined) => (canary?.address() as { port: number }).port;
  canaryPort = portOf(canaries[0]);
  wildcardPort = portOf(canaries[1]);
  // The model stand-in's rule as a loopback model URL now makes it: exactly its host and port.
  const allow = ["registry.npmjs.org", `127.0.0.1:${canaryPort}`, `*:${wildcardPort}`];
  proxy = spawn(process.execPath, [PROXY, socketPath, JSON.stringify(allow)], { stdio: "pipe" });
  proxy.stdout?.on("data", (chunk: Buffer) => (proxyOutput += chunk.toString("utf8")));
  await vi.waitFor(() => expect(proxyOutput).toContain("ready\n"), { timeout: 15_000, interval: 20 });
});

afterAll(async () => {
  proxy.kill();
  for (const canary of canaries) canary.close();
  await rm(dir, { recursive: true, force: true });
});

/** Ends the proxy (its stdin closes) and answers what it refused; it must still be running. */
async function refusedThenStop(): Promise<unknown> {
  const exited = new Promise<number | null>((resolve) => proxy.on("exit", resolve));
  expect(proxy.exitCode).toBeNull();
  proxy.stdin?.end();
  expect(await exited).toBe(0);
  return JSON.parse(proxyOutput.split("\n").at(-2) ?? "null");
}

/**
 * A client that writes `raw` to the proxy's socket and prints everything it gets back until the
 * proxy closes: a child process, as a sandboxed client is, outside this process's HTTP mocking.
 */
const CLIENT = `
const socket = require("node:net").connect(process.argv[1]);
socket.on("data", (chunk) => process.stdout.write(chunk));
socket.on("error", (error) => { process.stdout.write("client error: " + error.message); });
socket.write(process.argv[2]);
`;

async function ask(raw: string): Promise<string> {
  const { stdout } = await run(process.execPath, ["-e", CLIENT, socketPath, raw], { timeout: 15_000 });
  return stdout;
}

const connectTo = (authority: string) => ask(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);

describe("the egress proxy", () => {
  it("answers a CONNECT to a port out of range with 400, and keeps serving", async () => {
    expect(await connectTo("registry.npmjs.org:99999")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await connectTo("registry.npmjs.org:0")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await connectTo("registry.npmjs.org")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await connectTo(`127.0.0.1:${canaryPort}`)).toMatch(/^HTTP\/1\.1 200 [^]*canary/);
  });

  it("answers a request line that is not HTTP, and a plain request to a bad port, with 400", async () => {
    expect(await ask("\x16\x03\x01 garbage\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await ask("GET http://registry.npmjs.org:99999/ HTTP/1.1\r\nHost: x\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 400 /,
    );
    expect(await ask("GET /relative HTTP/1.1\r\nHost: x\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("refuses an allowed host on a port its rule does not name", async () => {
    expect(await connectTo("registry.npmjs.org:22")).toMatch(/^HTTP\/1\.1 403 /);
  });

  it("reaches the runner's loopback only on the port a rule names, never through a wildcard or a name", async () => {
    const before = canaryHits;
    expect(await connectTo(`127.0.0.1:${canaryPort + 1}`)).toMatch(/^HTTP\/1\.1 403 /);
    for (const host of ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]", "[::1]", "0.0.0.0"])
      expect(await connectTo(`${host}:${wildcardPort}`), host).toMatch(/^HTTP\/1\.1 403 /);
    // A name the wildcard allows that resolves to 127.0.0.1: the proxy's lookup refuses the address.
    expect(await connectTo(`2130706433:${wildcardPort}`)).toMatch(/^HTTP\/1\.1 502 /);
    // In a URL that number is 127.0.0.1 already, which no wildcard stands for.
    expect(await ask(`GET http://2130706433:${wildcardPort}/ HTTP/1.1\r\nHost: x\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 403 /,
    );
    expect(canaryHits).toBe(before);
  });

  it("is still running after all of it, and counted the refusals by host and port", async () => {
    const refused = await refusedThenStop();
    expect(refused).toContainEqual({ host: "registry.npmjs.org:22", count: 1 });
    expect(refused).toContainEqual({ host: `127.0.0.1:${canaryPort + 1}`, count: 1 });
    expect(refused).toContainEqual({ host: "(malformed request)", count: 6 });
  });
});
