/**
 * The first process inside a sandbox that has network access: it listens on the sandbox's own
 * loopback (its network namespace has nothing else) and relays each connection to the egress
 * proxy's Unix socket, then runs the real command and exits with its status. Tools find the
 * proxy through the usual `HTTPS_PROXY` variables. With socat on the host (the reusable workflow
 * installs it with bubblewrap) the relay is socat, started in the background before the command
 * once it listens (a few milliseconds); without it, the relay is node, passed to `node -e` so the
 * bundled Action needs no file of its own, at the cost of node's start-up on every command.
 */

/** The proxy's address inside the sandbox: a port on the sandbox's private loopback. */
export const BRIDGE_PORT = 3128;
export const BRIDGE_URL = `http://127.0.0.1:${BRIDGE_PORT}`;

const SCRIPT = `
const net = require("node:net");
const { spawn } = require("node:child_process");
const [socketPath, , file, ...args] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
  client.pipe(upstream).pipe(client);
});
server.listen(${BRIDGE_PORT}, "127.0.0.1", () => {
  const child = spawn(file, args, { stdio: "inherit" });
  child.on("error", (error) => { process.stderr.write(String(error.message) + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (require("node:os").constants.signals[signal] ?? 0)));
});
`;

/**
 * Starts socat, waits until it listens, then runs the command. The wait reads the sandbox's own
 * count of TCP sockets in use (`/proc/net/sockstat`, per network namespace): the namespace is new,
 * so the first one is socat's, and it is counted once it listens. Not `/proc/net/tcp`, which the
 * kernel builds by walking the host's whole connection table (262,144 buckets on a 24 GiB
 * machine): one read took ~30 ms, most of the sandbox's cost per command. Shell built-ins only,
 * so the wait forks nothing.
 */
const SOCAT_SCRIPT = `"$0" TCP-LISTEN:${BRIDGE_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:"$1" & shift
listening() {
  while read -r protocol _ inuse _; do
    [ "$protocol" = TCP: ] && [ "$inuse" != 0 ] && return 0
  done </proc/net/sockstat
  return 1
}
until listening; do :; done
exec "$@"`;

export interface Relay {
  readonly node: string;
  /** socat's path on the host, when it is installed (bound read-only inside, as /usr is). */
  readonly socat?: string;
}

/** The command line that starts the relay to `socketPath`, then `file args…`. */
export function bridgeCommand(
  relay: Relay,
  socketPath: string,
  file: string,
  args: readonly string[],
): string[] {
  return relay.socat
    ? ["/bin/sh", "-c", SOCAT_SCRIPT, relay.socat, socketPath, file, ...args]
    : [relay.node, "-e", SCRIPT, socketPath, "--", file, ...args];
}
