/**
 * The sandbox's only way out: an HTTP proxy on a Unix socket that is bound into the sandbox
 * (whose network namespace has nothing but its own loopback). It serves `CONNECT host:port`
 * (HTTPS and other TLS) and plain `http://` requests, lets through the hosts on the allowlist and
 * refuses every other with 403, counting refusals per host for the job summary, so a user can
 * widen the list knowingly. It never looks inside TLS.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { hostAllowed } from "./host-patterns.ts";
import type { RefusedHost } from "./sandbox.ts";

export interface EgressProxy {
  readonly socketPath: string;
  refused(): RefusedHost[];
  close(): Promise<void>;
}

export async function startEgressProxy(socketPath: string, allow: readonly string[]): Promise<EgressProxy> {
  const refusals = new Map<string, number>();
  const sockets = new Set<Socket>();
  function refuse(host: string): void {
    // The name comes from inside the sandbox and ends up in the job summary: only a host name's characters.
    const shown = /^[A-Za-z0-9.:_-]{1,253}$/.test(host) ? host.toLowerCase() : "(malformed host)";
    refusals.set(shown, (refusals.get(shown) ?? 0) + 1);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("Locus sandbox proxy: absolute http:// URL expected\n");
      return;
    }
    if (target.protocol !== "http:" || !hostAllowed(target.hostname, allow)) {
      refuse(target.hostname);
      res.writeHead(403).end(refusalText(target.hostname));
      return;
    }
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(`Locus sandbox proxy: ${error.message}\n`);
    });
    req.pipe(upstream);
  });

  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    const { host, port } = splitAuthority(req.url ?? "");
    if (host === "" || !hostAllowed(host, allow)) {
      refuse(host);
      client.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n${refusalText(host)}`);
      return;
    }
    const upstream = connect(port, host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => {
      client.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n");
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    socketPath,
    refused: () => [...refusals].map(([host, count]) => ({ host, count })).sort((a, b) => b.count - a.count),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function refusalText(host: string): string {
  return `Locus sandbox: ${host || "(no host)"} is not on the egress allowlist (config sandbox.network.allow)\n`;
}

/** `host:port` or `[v6]:port` of a CONNECT request. */
function splitAuthority(authority: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
  if (!match) return { host: "", port: 0 };
  return { host: (match[1] ?? "").replace(/^\[(.*)\]$/, "$1"), port: Number(match[2]) };
}
