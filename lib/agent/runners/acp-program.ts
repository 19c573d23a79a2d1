/**
 * Where the `acp` provider's program comes from: the configured command found
 * on a trusted PATH (never the worktree or the checkout, see
 * trusted-executable.ts), and the error that tells the user what to set when
 * it is missing. Apart from the runner because availability is asked without
 * running anything.
 */
import { tmpdir } from "node:os";
import { programFiles } from "../../sandbox/program-files.ts";
import type { Sandbox, WrappedCommand } from "../../sandbox/sandbox.ts";
import type { McpServerSettings } from "../mcp/mcp-server-settings.ts";
import type { CommandLine } from "./acp-command.ts";
import { serverPrograms } from "./acp-mcp-servers.ts";
import { ProviderUnavailableError } from "./provider-unavailable-error.ts";
import {
  actionBinDirs,
  findTrustedExecutable,
  type TrustedExecutable,
  type TrustedLookup,
} from "./trusted-executable.ts";

export interface AcpProgram {
  readonly locate: (cwd?: string) => Promise<TrustedExecutable | undefined>;
  /** Where its programs (the agent's, its MCP servers') may come from: never the worktree or the checkout. */
  readonly lookup: (cwd?: string) => TrustedLookup;
  readonly unavailable: (found?: TrustedExecutable) => ProviderUnavailableError;
}

export function acpProgram(
  line: CommandLine | undefined,
  env: Readonly<Record<string, string | undefined>>,
): AcpProgram {
  const lookup = (cwd?: string): TrustedLookup => ({
    path: env["PATH"],
    untrusted: [cwd, env["GITHUB_WORKSPACE"]].filter((dir) => dir !== undefined),
    extraDirs: actionBinDirs(),
  });
  return {
    lookup,
    locate(cwd) {
      if (line === undefined) return Promise.resolve(undefined);
      return findTrustedExecutable(line.executable, lookup(cwd));
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

/**
 * The agent's command line: inside the run's sandbox when there is one, like the CLI providers,
 * with its own credentials (`agent.acp.env`) kept and its program's files readable there, started
 * outside the repository (WrapOptions.startIn); the worktree reaches it as session/new's cwd.
 */
export function confinedAgent(
  run: {
    readonly sandbox: Sandbox | undefined;
    readonly env: Readonly<Record<string, string>>;
    readonly keep: readonly string[];
  },
  agent: {
    readonly executable: string;
    readonly args: readonly string[];
    readonly cwd: string;
    readonly servers: readonly McpServerSettings[];
  },
): Promise<WrappedCommand> {
  const { executable, args } = agent;
  if (!run.sandbox) return Promise.resolve({ file: executable, args, env: run.env, cwd: tmpdir() });
  return run.sandbox.wrap(executable, args, {
    cwd: agent.cwd,
    env: run.env,
    keep: run.keep,
    // The MCP servers it starts run in its sandbox, so their programs are readable there too.
    readable: [executable, ...serverPrograms(agent.servers)].flatMap((program) => programFiles(program)),
    startIn: "neutral",
    holdsCredentials: true,
  });
}
