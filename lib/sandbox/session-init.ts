/**
 * The program a sandbox session runs inside bubblewrap, under bubblewrap's own PID 1 (which reaps
 * every orphan): passed to `node -e`, so the bundled Action needs no file of its own. It reads one
 * JSON request a line on stdin and runs it in a process group of its own (`setsid`), with the
 * request's directory, environment, timeout and output budget (head passed on as it comes, tail
 * held, the middle counted; see output-cap.ts), and answers on stdout: `{ready}` once, output
 * frames `{id, out, data}` (base64), then `{id, exit, signal, timedOut, aborted, dropped}` or
 * `{id, error}`.
 *
 * What one command leaves behind is gone before the next starts, as it was when each command had a
 * sandbox of its own: once the command exits, `kill(-1, SIGKILL)` ends every process in the
 * sandbox but PID 1 and this one (a daemon that left the group with `setsid` too), repeated until
 * `/proc` shows none; the shared-memory directory is emptied and System V IPC objects are removed.
 * The root and `/dev` are read-only (bwrap-args.ts), so those are the only places outside the
 * worktree and the private temp a command can write. The relay to the egress proxy is part of this
 * process, so the sweep never touches it. End of stdin ends the session.
 */

/** The init's settings, passed as its one argument. */
export interface SessionInitConfig {
  /** The egress proxy's socket inside; the relay listens on `BRIDGE_PORT` when set. */
  readonly proxySocket?: string;
  readonly bridgePort: number;
  /**
   * Services on the runner's loopback the allowlist names (`127.0.0.1:5432`, `localhost:6379`): the
   * same port on the sandbox's own loopback is forwarded to each through the proxy's `CONNECT`, so a
   * client that knows nothing of proxies (a database driver) reaches it, and the proxy still decides.
   */
  readonly forwards?: ReadonlyArray<{ readonly host: string; readonly port: number }>;
}

export const SESSION_INIT = String.raw`"use strict";
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const { signals } = require("node:os").constants;
const config = JSON.parse(process.argv[1]);
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

function others() {
  const found = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(name) || name === "1" || Number(name) === process.pid) continue;
    try {
      const stat = fs.readFileSync("/proc/" + name + "/stat", "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z") found.push(name);
    } catch {}
  }
  return found;
}

function sweep(then) {
  try { process.kill(-1, "SIGKILL"); } catch {}
  if (others().length > 0) return setImmediate(() => sweep(then));
  for (const entry of fs.readdirSync("/dev/shm")) fs.rmSync("/dev/shm/" + entry, { recursive: true, force: true });
  for (const kind of ["shm", "msg", "sem"]) {
    let lines = [];
    try { lines = fs.readFileSync("/proc/sysvipc/" + kind, "utf8").trim().split("\n"); } catch {}
    if (lines.length > 1) { spawnSync("ipcrm", ["--all"], { stdio: "ignore" }); break; }
  }
  then();
}

const queue = [];
let running;

function capped(request) {
  let passed = 0, held = [], heldBytes = 0, dropped = 0;
  const emit = (stream, chunk) => send({ id: request.id, out: stream, data: chunk.toString("base64") });
  return {
    push(stream, chunk) {
      if (passed < request.headBytes) {
        const now = chunk.subarray(0, request.headBytes - passed);
        passed += now.length;
        emit(stream, now);
        if (now.length === chunk.length) return;
        chunk = chunk.subarray(now.length);
      }
      held.push([stream, chunk]);
      heldBytes += chunk.length;
      while (heldBytes > request.tailBytes) {
        const over = heldBytes - request.tailBytes;
        const first = held[0];
        if (first[1].length <= over) { held.shift(); heldBytes -= first[1].length; dropped += first[1].length; }
        else { first[1] = first[1].subarray(over); heldBytes -= over; dropped += over; }
      }
    },
    end() { for (const [stream, chunk] of held) emit(stream, chunk); return dropped; },
  };
}

function run(request) {
  running = { id: request.id, kill: () => {} };
  const cap = capped(request);
  let child;
  let timedOut = false, aborted = false, exited, escalation, done = false;
  const finish = (answer) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    clearTimeout(escalation);
    sweep(() => {
      send(Object.assign({ id: request.id, dropped: cap.end() }, answer));
      running = undefined;
      if (queue.length > 0) run(queue.shift());
    });
  };
  const killGroup = (signal) => { try { process.kill(-child.pid, signal); } catch {} };
  const terminate = () => {
    if (escalation !== undefined || child.pid === undefined) return;
    killGroup("SIGTERM");
    escalation = setTimeout(() => killGroup("SIGKILL"), request.killGraceMs);
  };
  try {
    child = spawn(request.file, request.args, { cwd: request.cwd, env: request.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  } catch (error) {
    return finish({ error: String(error && error.message) });
  }
  const timer = setTimeout(() => { timedOut = true; terminate(); }, request.timeoutMs);
  running.kill = () => { aborted = true; terminate(); };
  child.stdout.on("data", (chunk) => cap.push(1, chunk));
  child.stderr.on("data", (chunk) => cap.push(2, chunk));
  child.on("error", (error) => finish({ error: String(error.message) }));
  child.on("exit", (code, signal) => {
    exited = { exit: code ?? 128 + (signals[signal] ?? 0), timedOut, aborted };
    // Whatever still holds the pipes is the command's leftovers: ended now, so "close" follows.
    try { process.kill(-1, "SIGKILL"); } catch {}
  });
  child.on("close", () => { if (exited) finish(exited); });
}

let pending = "";
process.stdin.on("data", (chunk) => {
  pending += chunk.toString("utf8");
  let newline;
  while ((newline = pending.indexOf("\n")) !== -1) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    const message = JSON.parse(line);
    if (message.kill !== undefined) { if (running && running.id === message.kill) running.kill(); }
    else if (running) queue.push(message);
    else run(message);
  }
});
process.stdin.on("end", () => { try { process.kill(-1, "SIGKILL"); } catch {} process.exit(0); });

function forward(host, port) {
  const server = net.createServer((client) => {
    const upstream = net.connect(config.proxySocket);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.write("CONNECT " + host + ":" + port + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n");
    let head = Buffer.alloc(0);
    const answered = (chunk) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      upstream.off("data", answered);
      if (!/^HTTP\/1\.[01] 200 /.test(head.subarray(0, end).toString("latin1"))) return client.destroy();
      if (head.length > end + 4) client.write(head.subarray(end + 4));
      client.pipe(upstream).pipe(client);
    };
    upstream.on("data", answered);
  });
  server.listen(port, "127.0.0.1");
  return server;
}

if (config.proxySocket) {
  const relay = net.createServer((client) => {
    const upstream = net.connect(config.proxySocket);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  // Ready once the relay and every forward listen: the first command may use any of them.
  const listening = [relay, ...(config.forwards || []).map(({ host, port }) => forward(host, port))];
  let waiting = listening.length;
  const counted = () => { if (--waiting === 0) send({ ready: true }); };
  // A forward that cannot listen leaves that port unreachable, never the session unready.
  for (const server of listening) { server.once("listening", counted); if (server !== relay) server.once("error", counted); }
  relay.listen(config.bridgePort, "127.0.0.1");
} else {
  send({ ready: true });
}
`;
