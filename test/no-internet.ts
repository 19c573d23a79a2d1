/**
 * Tests talk to loopback servers they start themselves, never to the
 * Internet. Every TCP or TLS connection (Node's http, fetch, git over HTTP in
 * process) goes through `net.Socket#connect`; one to any other host is given a
 * name lookup that fails, so it ends the way an unknown host does, through
 * Node's own error path, naming the host it was meant for. This costs nothing
 * per request, where an HTTP interceptor (nock) costs a few per cent of a
 * scenario test's CPU; nock is switched on only in the files that mock
 * GitHub with it (test/nock-scope.ts).
 */
import net, { type LookupFunction } from "node:net";

const LOOPBACK =
  /^(localhost|0\.0\.0\.0|(::ffff:)?127(\.\d{1,3}){3}|::1|\[(::1|::ffff:127(\.\d{1,3}){3})\])$/i;
let installed = false;
/** Off while nock is on: its interceptor opens a socket for a mocked request too, and refuses other hosts itself. */
let deferToNock = false;

export function deferInternetGuardToNock(defer: boolean): void {
  deferToNock = defer;
}

interface ConnectCall {
  options: { host?: string; port?: number | string; path?: string | null };
  callback: unknown;
}

/** `connect`'s overloads: Node's own normalised `[options, callback]`, an options object, `(port, host?, callback?)`, or a pipe path. */
function readConnectCall(args: unknown[]): ConnectCall | null {
  const [first, second] = args;
  const last = args.at(-1);
  const callback = typeof last === "function" ? last : undefined;
  if (Array.isArray(first)) return { options: first[0] as ConnectCall["options"], callback: first[1] };
  if (typeof first === "object" && first !== null) return { options: first, callback };
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    return { options: { port: first, ...(typeof second === "string" ? { host: second } : {}) }, callback };
  }
  return null;
}

export function refuseInternetConnections(): void {
  if (installed) return;
  installed = true;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- always called with the socket as `this`
  const connect = net.Socket.prototype.connect as (this: net.Socket, ...args: unknown[]) => net.Socket;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]): net.Socket {
    const call = readConnectCall(args);
    const host = call?.options.host ?? "localhost";
    if (deferToNock || !call || call.options.path || LOOPBACK.test(host)) {
      return connect.apply(this, args);
    }
    const target = `${host}:${String(call.options.port ?? "")}`;
    const refuse: LookupFunction = (_hostname, _options, done) => {
      const error = Object.assign(new Error(`tests do not reach the Internet (${target})`), {
        code: "ENOTFOUND",
      });
      done(error, "", 0);
    };
    // A name, not an address, so that the connection asks `lookup` before anything else.
    const refused = { ...call.options, host: "no-internet-in-tests", lookup: refuse };
    return connect.call(this, refused, call.callback);
  };
}
