/**
 * The agent runner of the configured provider, running everything it starts in the run's sandbox;
 * it strips every secret from the environment its tools see. The runners (the Anthropic SDK above all) are loaded on first use: most of the
 * bundle, and none of it needed before the first GitHub call, so start-up does not wait on it.
 */
import type { AcpSettings, AgentRunner, Provider } from "../lib/agent/runner.ts";
import type { LocusConfig } from "../lib/config/index.ts";
import { DEFAULT_ACP_ENV } from "../lib/config/schema.ts";
import { mcpServerList } from "../lib/agent/mcp/mcp-server-settings.ts";

function acpSettings(config: LocusConfig): AcpSettings {
  const acp = config.agent.acp;
  return {
    ...(acp?.command === undefined ? {} : { command: acp.command }),
    env: acp?.env ?? DEFAULT_ACP_ENV,
    ...(acp?.costPerToolCallUsd === undefined ? {} : { costPerToolCallUsd: acp.costPerToolCallUsd }),
  };
}
import type { Sandbox } from "../lib/sandbox/sandbox.ts";

export function createAgentRunner(
  provider: Provider,
  config: LocusConfig,
  env: Readonly<Record<string, string | undefined>>,
  apiKey: string,
  sandbox: Sandbox,
): AgentRunner {
  let loaded: Promise<AgentRunner> | undefined;
  const runner = (): Promise<AgentRunner> =>
    (loaded ??= import("../lib/agent/create-runner.ts").then(({ createRunner }) =>
      createRunner(provider, {
        env: { ...env, ANTHROPIC_API_KEY: apiKey || env["ANTHROPIC_API_KEY"] },
        shell: config.shell,
        acp: acpSettings(config),
        mcpServers: mcpServerList(config.agent.mcpServers),
        hooks: config.agent.hooks ?? [],
        sandbox,
      }),
    ));
  return {
    name: provider,
    isAvailable: async () => (await runner()).isAvailable(),
    version: async () => (await runner()).version(),
    execute: async (options) => (await runner()).execute(options),
  };
}
