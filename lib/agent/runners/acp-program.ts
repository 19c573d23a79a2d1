/**
 * Where the `acp` provider's program comes from: the configured command found
 * on a trusted PATH (never the worktree or the checkout, see
 * trusted-executable.ts), and the error that tells the user what to set when
 * it is missing. Apart from the runner because availability is asked without
 * running anything.
 */
import type { CommandLine } from "./acp-command.ts";
import { ProviderUnavailableError } from "./provider-unavailable-error.ts";
import { actionBinDirs, findTrustedExecutable, type TrustedExecutable } from "./trusted-executable.ts";

export interface AcpProgram {
  readonly locate: (cwd?: string) => Promise<TrustedExecutable | undefined>;
  readonly unavailable: (found?: TrustedExecutable) => ProviderUnavailableError;
}

export function acpProgram(
  line: CommandLine | undefined,
  env: Readonly<Record<string, string | undefined>>,
): AcpProgram {
  return {
    locate(cwd) {
      if (line === undefined) return Promise.resolve(undefined);
      return findTrustedExecutable(line.executable, {
        path: env["PATH"],
        untrusted: [cwd, env["GITHUB_WORKSPACE"]].filter((dir) => dir !== undefined),
        extraDirs: actionBinDirs(),
      });
    },
    unavailable(found) {
      return line === undefined
        ? new ProviderUnavailableError(
            "acp",
            "provider acp needs agent.acp.command in .github/locus.yml: the ACP agent to start (for example `npx -y @zed-industries/claude-code-acp`)",
          )
        : new ProviderUnavailableError(
            "acp",
            `agent.acp.command: ${found?.found === false ? found.reason : `\`${line.executable}\` was not found`}; install the ACP agent or set provider: builtin`,
          );
    },
  };
}
