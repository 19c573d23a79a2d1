/**
 * Where a coding-agent CLI runs: its command line wrapped in the run's
 * sandbox when there is one. Apart from the runner because it is the
 * boundary the CLI's process lives in, read on its own.
 */
import { realpath } from "node:fs/promises";
import { programFiles } from "../../sandbox/program-files.ts";
import type { Sandbox, WrappedCommand } from "../../sandbox/sandbox.ts";
import { isSecretName } from "../../sandbox/environment.ts";
import type { CliSpec } from "./cli-spec.ts";

/**
 * The CLI's command line, inside the sandbox when there is one. Its environment is the spec's
 * (secrets stripped, its own credentials added); the credentials are the only secret-named
 * variables left in it, and they are passed on on purpose. The sandbox runs the CLI's real file
 * with its npm tree bound read-only: the reusable workflow installs it under the runner's home,
 * which the sandbox otherwise hides.
 */
export async function confinedCli(
  spec: CliSpec,
  options: { readonly env: Readonly<Record<string, string | undefined>>; readonly sandbox?: Sandbox },
  executable: string,
  args: readonly string[],
  cwd: string,
  /** Directories Locus wrote for the CLI to read: its answer's schema, the images. */
  readableDirs: readonly string[],
): Promise<WrappedCommand> {
  const env = spec.env(options.env);
  if (!options.sandbox) return { file: executable, args, env, cwd };
  const real = await realpath(executable);
  return options.sandbox.wrap(real, args, {
    cwd,
    env,
    keep: Object.keys(env).filter(isSecretName),
    readable: [...programFiles(real), ...readableDirs],
    // Its own home: one the agent's commands in an earlier task or run_shell never wrote.
    holdsCredentials: true,
  });
}
