/**
 * `sandbox.mode: off`: processes run as they are, with the secret-stripped environment the
 * agent's shell always had, the whole network and every file the runner's user can read. The
 * run says so in its status comments and job summary.
 */
import { tmpdir } from "node:os";
import { scrubEnvironment } from "../agent/tools/environment.ts";
import type { Sandbox } from "./sandbox.ts";
import { startDirectory } from "./sandbox-mounts.ts";

export function unsandboxed(): Sandbox {
  return {
    kind: "off",
    allowedHosts: [],
    wrap(file, args, options) {
      const env = scrubEnvironment(options.env);
      for (const name of options.keep ?? []) {
        const value = options.env[name];
        if (value !== undefined) env[name] = value;
      }
      // A credential-holding program starts outside the repository here too (see WrapOptions.startIn).
      const cwd =
        options.startIn === "neutral"
          ? tmpdir()
          : options.chdir
            ? startDirectory(options.cwd, options.chdir)
            : options.cwd;
      return Promise.resolve({ file, args: [...args], env, cwd });
    },
    refused: () => [],
    close: () => Promise.resolve(),
  };
}
