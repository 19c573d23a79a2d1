/**
 * `sandbox.mode: off`: processes run as they are, with the secret-stripped environment the
 * agent's shell always had, the whole network and every file the runner's user can read. The
 * run says so in its status comments and job summary.
 */
import { scrubEnvironment } from "../agent/tools/environment.ts";
import type { Sandbox } from "./sandbox.ts";

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
      return Promise.resolve({ file, args: [...args], env, cwd: options.cwd });
    },
    refused: () => [],
    close: () => Promise.resolve(),
  };
}
