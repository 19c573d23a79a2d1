/**
 * The sandbox on bubblewrap: one instance per run, with one egress proxy and, per worktree, a
 * private temp and home directory that live until `close`. See bwrap-args.ts for what a process
 * inside can and cannot reach.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bwrapArgs } from "./bwrap-args.ts";
import { startEgressProxy, type EgressProxy } from "./egress-proxy.ts";
import { BRIDGE_URL, bridgeCommand } from "./proxy-bridge.ts";
import type { Sandbox, WrappedCommand, WrapOptions } from "./sandbox.ts";
import { ownConfigOnly, sandboxEnvironment } from "./sandbox-environment.ts";
import { gitMounts, hostMounts, startDirectory } from "./sandbox-mounts.ts";

export interface BubblewrapOptions {
  readonly bwrap: string;
  /** Host patterns the egress proxy allows; none refuses (and counts) every connection. */
  readonly allow: readonly string[];
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
    proxy = await startEgressProxy(join(root, "proxy.sock"), options.allow);
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

  return {
    kind: "bubblewrap",
    allowedHosts: options.allow,
    async wrap(file: string, args: readonly string[], wrap: WrapOptions): Promise<WrappedCommand> {
      const dirs = wrap.holdsCredentials ? await freshDirs() : await privateFor(wrap.cwd);
      const command = wrap.offline ? [file, ...args] : bridgeCommand(relay, PROXY_SOCKET, file, args);
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
        ...(wrap.startIn === "neutral"
          ? { chdir: HOME }
          : wrap.chdir
            ? { chdir: startDirectory(wrap.cwd, wrap.chdir) }
            : {}),
      };
      return { file: options.bwrap, args: bwrapArgs(plan, command), env, cwd: wrap.cwd };
    },
    refused: () => proxy.refused(),
    async close() {
      await proxy.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
