/**
 * The sandbox on bubblewrap: one instance per run, with one egress proxy and, per worktree, a
 * private temp and home directory that live until `close`. See bwrap-args.ts for what a process
 * inside can and cannot reach. `exec` runs a command in a session (sandbox-session.ts) kept for
 * the run, one per set of mounts; `wrap` gives a command line for a sandbox of its own, for
 * programs that live as long as they like (CLI and ACP agents, MCP servers).
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bwrapArgs } from "./bwrap-args.ts";
import { startEgressProxy, type EgressProxy } from "./egress-proxy.ts";
import type { HostCredential } from "./registry-credentials.ts";
import { runHostCommand } from "./host-command.ts";
import { BRIDGE_PORT, BRIDGE_URL, bridgeCommand } from "./proxy-bridge.ts";
import type { CommandOutcome, CommandRequest, Sandbox, WrappedCommand, WrapOptions } from "./sandbox.ts";
import { SESSION_INIT, type SessionInitConfig } from "./session-init.ts";
import { loopbackServices } from "./host-patterns.ts";
import { startSandboxSession } from "./sandbox-session.ts";
import { createSessionPool } from "./session-pool.ts";
import { ownConfigOnly, sandboxEnvironment } from "./sandbox-environment.ts";
import { gitMounts, hostMounts, startDirectory } from "./sandbox-mounts.ts";

export interface BubblewrapOptions {
  readonly bwrap: string;
  /** Host patterns the egress proxy allows; none refuses (and counts) every connection. */
  readonly allow: readonly string[];
  /** Private registries' credentials, which only the proxy (in this process) holds. */
  readonly credentials?: readonly HostCredential[];
  /** The Action's environment: PATH (toolchains) and the directories to hide. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The node binary made visible inside (the one running Locus by default). */
  readonly node?: string;
  /** socat for the in-sandbox relay to the proxy (fast); node does it when absent. */
  readonly socat?: string;
}

const HOME = "/home/locus";
const TMP = "/tmp";
const PROXY_SOCKET = "/run/locus-proxy.sock";
/**
 * The login identity some spawners add to the environment they are given (the MCP SDK's stdio
 * transport does): never in the allowlist, so removed inside unless a caller kept one on purpose.
 */
const LOGIN_VARIABLES = ["USER", "LOGNAME", "SHELL", "MAIL"];

export async function createBubblewrapSandbox(options: BubblewrapOptions): Promise<Sandbox> {
  const node = options.node ?? process.execPath;
  const root = await mkdtemp(join(tmpdir(), "locus-sandbox-"));
  const host = hostMounts(options.env, node);
  let proxy: EgressProxy;
  try {
    // Even with nothing allowed, so that what the agent tried to reach is counted in the summary.
    proxy = await startEgressProxy(join(root, "proxy.sock"), options.allow, options.credentials);
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const relay = { node, ...(options.socat ? { socat: options.socat } : {}) };
  const privateDirs = new Map<string, Promise<{ tmp: string; home: string }>>();

  let programs = 0;
  /** A credential-holding program's own directories, fresh for each command (removed at close). */
  async function freshDirs(): Promise<{ tmp: string; home: string }> {
    const base = join(root, `p${programs++}`);
    const made = { tmp: join(base, "tmp"), home: join(base, "home") };
    await mkdir(made.tmp, { recursive: true });
    await mkdir(made.home, { recursive: true });
    return made;
  }

  function privateFor(cwd: string): Promise<{ tmp: string; home: string }> {
    let dirs = privateDirs.get(cwd);
    if (dirs === undefined) {
      const base = join(root, `w${privateDirs.size}`);
      dirs = (async () => {
        const made = { tmp: join(base, "tmp"), home: join(base, "home") };
        await mkdir(made.tmp, { recursive: true });
        await mkdir(made.home, { recursive: true });
        return made;
      })();
      privateDirs.set(cwd, dirs);
    }
    return dirs;
  }

  /** The mounts and environment of one command (`file args…` when it is wrapped on its own). */
  function planFor(wrap: WrapOptions, dirs: { tmp: string; home: string }) {
    const env = sandboxEnvironment(wrap.env, {
      home: HOME,
      tmp: TMP,
      proxyUrl: BRIDGE_URL,
      ...(wrap.keep ? { keep: wrap.keep } : {}),
    });
    if (wrap.holdsCredentials) Object.assign(env, ownConfigOnly(HOME));
    const plan = {
      ...host,
      tmp: { source: dirs.tmp, dest: TMP },
      home: { source: dirs.home, dest: HOME },
      worktree: wrap.cwd,
      ...gitMounts(wrap.cwd),
      ...(wrap.readable ? { readable: wrap.readable } : {}),
      ...(wrap.writable ? { writable: wrap.writable } : {}),
      proxySocket: { source: proxy.socketPath, dest: PROXY_SOCKET },
      unsetEnv: LOGIN_VARIABLES.filter((name) => !(name in env)),
    };
    return { env, plan };
  }

  function startIn(wrap: WrapOptions): string | undefined {
    if (wrap.startIn === "neutral") return HOME;
    return wrap.chdir ? startDirectory(wrap.cwd, wrap.chdir) : undefined;
  }

  const services = loopbackServices(options.allow, BRIDGE_PORT);
  const sessions = createSessionPool(async (wrap) => {
    const { plan } = planFor(wrap, await privateFor(wrap.cwd));
    const init: SessionInitConfig = {
      bridgePort: BRIDGE_PORT,
      ...(wrap.offline ? {} : { proxySocket: PROXY_SOCKET, forwards: services }),
    };
    // The init gets only PATH from the spawner; every command brings its own environment.
    const args = bwrapArgs({ ...plan, unsetEnv: [], sealed: true }, [
      node,
      "-e",
      SESSION_INIT,
      JSON.stringify(init),
    ]);
    return startSandboxSession(options.bwrap, args);
  });

  const sandbox: Sandbox = {
    kind: "bubblewrap",
    allowedHosts: options.allow,
    async wrap(file: string, args: readonly string[], wrap: WrapOptions): Promise<WrappedCommand> {
      const dirs = wrap.holdsCredentials ? await freshDirs() : await privateFor(wrap.cwd);
      const command = wrap.offline ? [file, ...args] : bridgeCommand(relay, PROXY_SOCKET, file, args);
      const { env, plan } = planFor(wrap, dirs);
      const chdir = startIn(wrap);
      const bwrap = bwrapArgs({ ...plan, ...(chdir === undefined ? {} : { chdir }) }, command);
      return { file: options.bwrap, args: bwrap, env, cwd: wrap.cwd };
    },
    prepare(wrap: WrapOptions): void {
      if (!wrap.holdsCredentials && wrap.startIn !== "neutral") sessions.prepare(wrap);
    },
    async exec(request: CommandRequest, wrap: WrapOptions): Promise<CommandOutcome> {
      // A credential-holding program gets directories of its own: a sandbox of its own too.
      if (wrap.holdsCredentials || wrap.startIn === "neutral")
        return runHostCommand(await sandbox.wrap(request.file, request.args, wrap), request);
      const { env } = planFor(wrap, await privateFor(wrap.cwd));
      return sessions.run(wrap, { ...request, cwd: startIn(wrap) ?? wrap.cwd, env });
    },
    refused: () => proxy.refused(),
    async close() {
      await sessions.close();
      await proxy.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  return sandbox;
}
