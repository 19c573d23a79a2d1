/**
 * The sandbox's only way out: an HTTP proxy on a Unix socket that is bound into the sandbox
 * (whose network namespace has nothing but its own loopback). It serves `CONNECT host:port`
 * (HTTPS and other TLS) and plain `http://` requests, lets through the hosts and ports on the
 * allowlist (host-patterns.ts) and refuses every other with 403, counting refusals per host for
 * the job summary, so a user can widen the list knowingly. It never looks inside TLS: a private
 * registry's credential is added only to a plain `http://` request to its host, which the proxy
 * then sends upstream over HTTPS itself (registry-credentials.ts).
 *
 * Everything it reads comes from inside the sandbox, and it runs in the Action's own process: a
 * request it cannot honour (no port, port 99999, a request line that is not HTTP) gets a 400 and
 * the connection closes; nothing a client sends may throw here, where an uncaught error would end
 * the whole run.
 */
import { lookup as dnsLookup } from "node:dns";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { request as requestTls } from "node:https";
import { connect, type LookupFunction, type Socket } from "node:net";
import {
  DEFAULT_PORTS,
  hostAllowed,
  isLoopback,
  normalHost,
  parsePort,
  type EgressTarget,
} from "./host-patterns.ts";
import { upstreamRequest, type HostCredential } from "./registry-credentials.ts";
import type { RefusedHost } from "./sandbox.ts";

export interface EgressProxy {
  readonly socketPath: string;
  refused(): RefusedHost[];
  close(): Promise<void>;
}

const BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";

export async function startEgressProxy(
  socketPath: string,
  allow: readonly string[],
  /** Private registries' credentials, added to plain-HTTP requests to their hosts (registry-credentials.ts). */
  credentials: readonly HostCredential[] = [],
): Promise<EgressProxy> {
  const refusals = new Map<string, number>();
  const sockets = new Set<Socket>();
  function refuse(target: EgressTarget | undefined): void {
    const shown = target === undefined ? "(malformed request)" : shownTarget(target);
    refusals.set(shown, (refusals.get(shown) ?? 0) + 1);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.on("error", () => res.destroy());
    res.on("error", () => req.destroy());
    // A refused or malformed request ends its connection: nothing more is read from that client.
    const close = { connection: "close" };
    const target = httpTarget(req.url ?? "");
    if (target === undefined) {
      refuse(undefined);
      res
        .writeHead(400, close)
        .end("Locus sandbox proxy: absolute http:// URL with a port in 1-65535 expected\n");
      return;
    }
    if (!hostAllowed(target, allow)) {
      refuse(target);
      res.writeHead(403, close).end(refusalText(target));
      return;
    }
    try {
      const outgoing = upstreamRequest(target.url, target, req.headers, credentials);
      const send = outgoing.url.protocol === "https:" ? requestTls : request;
      const upstream = send(
        outgoing.url,
        { method: req.method, headers: outgoing.headers, lookup: guardedLookup(target) },
        (answer) => {
          answer.on("error", () => res.destroy());
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", (error) => {
        if (!res.headersSent) res.writeHead(502);
        res.end(`Locus sandbox proxy: ${error.message}\n`);
      });
      req.pipe(upstream);
    } catch {
      // Node refused to build the request (a header or method it will not send): the client's fault.
      if (!res.headersSent) res.writeHead(400, close);
      res.end("Locus sandbox proxy: request refused as malformed\n");
    }
  });

  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    const target = splitAuthority(req.url ?? "");
    if (target === undefined) {
      refuse(undefined);
      client.end(`${BAD_REQUEST}Locus sandbox proxy: CONNECT host:port with a port in 1-65535 expected\n`);
      return;
    }
    if (!hostAllowed(target, allow)) {
      refuse(target);
      client.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n${refusalText(target)}`);
      return;
    }
    let upstream: Socket;
    try {
      upstream = connect({ port: target.port, host: target.host, lookup: guardedLookup(target) });
    } catch {
      client.end(BAD_REQUEST);
      return;
    }
    sockets.add(upstream);
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => {
      client.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n");
    });
  });

  // A request line or header node cannot parse: answered 400 here rather than by node's default.
  server.on("clientError", (_error: Error, socket: Socket) => {
    refuse(undefined);
    if (socket.writable) socket.end(BAD_REQUEST);
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  // After listening, a server error (none expected) is logged by nobody rather than thrown.
  server.on("error", () => undefined);
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

/** The host as the summary lists it: with its port when that is not one a bare rule allows. */
function shownTarget(target: EgressTarget): string {
  // The name comes from inside the sandbox and ends up in the job summary: only a host name's characters.
  const host = /^[A-Za-z0-9.:_-]{1,253}$/.test(target.host) ? target.host.toLowerCase() : "(malformed host)";
  if (DEFAULT_PORTS.includes(target.port)) return host;
  return host.includes(":") ? `[${host}]:${target.port}` : `${host}:${target.port}`;
}

function refusalText(target: EgressTarget): string {
  return `Locus sandbox: ${shownTarget(target)} is not on the egress allowlist (config sandbox.network.allow; a rule without a port allows 443 and 80)\n`;
}

/** `host:port` or `[v6]:port` of a CONNECT request; undefined without a valid port. */
function splitAuthority(authority: string): EgressTarget | undefined {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]\s/]+):([^:]*)$/.exec(authority);
  const port = match?.[2] === undefined ? undefined : parsePort(match[2]);
  if (!match?.[1] || port === undefined) return undefined;
  return { host: normalHost(match[1]), port };
}

/** An absolute `http://` URL's host and port (80 when none is written). */
function httpTarget(raw: string): (EgressTarget & { readonly url: URL }) | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  const port = url.port === "" ? 80 : parsePort(url.port);
  if (url.protocol !== "http:" || url.hostname === "" || port === undefined) return undefined;
  return { host: normalHost(url.hostname), port, url };
}

/**
 * Name resolution that refuses an address on the proxy's own machine: a name like
 * `localtest.me` or `2130706433` that resolves to loopback must not reach the runner's services
 * through a rule that allows the name. A loopback target the allowlist names itself is reached.
 */
function guardedLookup(target: EgressTarget): LookupFunction {
  const named = isLoopback(target.host);
  return (hostname, options, callback) => {
    dnsLookup(hostname, options, (error, address, family) => {
      if (error || named) return callback(error, address, family);
      const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
      if (addresses.some((entry) => isLoopback(entry))) {
        const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to the runner's own machine`);
        refused.code = "ELOCUSLOOPBACK";
        return callback(refused, address, family);
      }
      callback(null, address, family);
    });
  };
}
