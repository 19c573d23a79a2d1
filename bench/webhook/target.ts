/**
 * A webhook receiver under load, in its own process: `app` is the real Locus app behind its
 * real HTTP front (app/http-server.ts, as app/server.ts runs it), `bare` the baseline — `node:http` that reads
 * the body, checks the HMAC in constant time, parses the JSON and answers 202.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Probot } from "probot";
import { createLocusServer } from "../../app/http-server.ts";
import { createLocusApp } from "../../app/index.ts";
import { locusOctokit } from "../../app/octokit.ts";
import { servePeer } from "./ipc.ts";
import { SECRET, WEBHOOK_PATH, type SimReady, type TargetReady } from "./shared.ts";

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

function bare(): HttpServer {
  const received: unknown[] = [];
  return createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const given = Buffer.from(String(req.headers["x-hub-signature-256"] ?? ""));
      const expected = Buffer.from(`sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.writeHead(401).end();
        return;
      }
      received.push(JSON.parse(body.toString("utf8")));
      // Bounded, like any real receiver's queue; the baseline must not grow without end.
      if (received.length > 1000) received.length = 0;
      res.writeHead(202).end();
    });
  });
}

/** Resident and heap memory after a full collection (the peer runs with --expose-gc). */
function memory(): { rss: number; heapUsed: number } {
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

const mode = process.argv[2];
if (mode === "bare") {
  const server = bare();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  servePeer({ url: `http://127.0.0.1:${port}${WEBHOOK_PATH}` } satisfies TargetReady, {
    cpu: () => process.cpuUsage(),
    memory,
    drain: () => null,
  });
} else if (mode === "app") {
  const sim = JSON.parse(process.argv[3] ?? "{}") as SimReady;
  const asStarted = process.argv[4] === "as-started";
  const locus = createLocusApp();
  const silent = pino({ level: "silent" });
  const probot = new Probot({
    appId: sim.appId,
    privateKey: sim.privateKey,
    secret: SECRET,
    baseUrl: sim.apiUrl,
    log: silent,
    // Write pacing (one a second per installation) is GitHub etiquette, not intake cost; it
    // is off so a slow-GitHub run drains in seconds (writes stay one at a time), unless the
    // run measures the app as `npm start` configures it.
    Octokit: asStarted ? locusOctokit(quiet) : locusOctokit(quiet, { retryUnitMs: 0, minWriteIntervalMs: 0 }),
  });
  const http = await createLocusServer({ probot, appFn: locus.appFn, webhookPath: WEBHOOK_PATH });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  servePeer({ url: `http://127.0.0.1:${port}${WEBHOOK_PATH}` } satisfies TargetReady, {
    cpu: () => process.cpuUsage(),
    memory,
    drain: async () => {
      await locus.work.drain();
      return null;
    },
  });
} else {
  throw new Error(`usage: target.ts app <sim-json> [as-started] | bare`);
}
