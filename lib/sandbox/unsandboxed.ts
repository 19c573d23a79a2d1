/**
 * `sandbox.mode: off`: processes run as they are, with the secret-stripped environment the
 * agent's shell always had, the whole network and every file the runner's user can read. The
 * run says so in its status comments and job summary. A credential-holding program still gets a
 * fresh home and temp directory of its own (the agent's shell can write the runner's `~/.npmrc`
 * here), removed when the run ends.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scrubEnvironment } from "./environment.ts";
import { runHostCommand } from "./host-command.ts";
import type { Sandbox, WrapOptions } from "./sandbox.ts";
import { ownConfigOnly } from "./sandbox-environment.ts";
import { startDirectory } from "./sandbox-mounts.ts";

export function unsandboxed(): Sandbox {
  const made: string[] = [];

  async function ownDirs(): Promise<{ home: string; tmp: string }> {
    const base = await mkdtemp(join(tmpdir(), "locus-program-"));
    made.push(base);
    const dirs = { home: join(base, "home"), tmp: join(base, "tmp") };
    await mkdir(dirs.home);
    await mkdir(dirs.tmp);
    return dirs;
  }

  function startIn(options: WrapOptions, home: string | undefined): string {
    // A credential-holding program starts outside the repository here too (see WrapOptions.startIn).
    if (options.startIn === "neutral") return home ?? tmpdir();
    return options.chdir ? startDirectory(options.cwd, options.chdir) : options.cwd;
  }

  const sandbox: Sandbox = {
    kind: "off",
    allowedHosts: [],
    prepare: () => undefined,
    async exec(request, options) {
      return runHostCommand(await sandbox.wrap(request.file, request.args, options), request);
    },
    async wrap(file, args, options) {
      const env = scrubEnvironment(options.env);
      for (const name of options.keep ?? []) {
        const value = options.env[name];
        if (value !== undefined) env[name] = value;
      }
      const own = options.holdsCredentials ? await ownDirs() : undefined;
      if (own) Object.assign(env, { HOME: own.home, TMPDIR: own.tmp }, ownConfigOnly(own.home));
      return { file, args: [...args], env, cwd: startIn(options, own?.home) };
    },
    refused: () => [],
    async close() {
      await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
  return sandbox;
}
