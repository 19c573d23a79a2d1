/**
 * The agent runner of the configured provider, running everything it starts in the run's sandbox;
 * it strips every secret from the environment its tools see. The runners (the Anthropic SDK above all) are loaded on first use: most of the
 * bundle, and none of it needed before the first GitHub call, so start-up does not wait on it.
 */
import type { AcpSettings, AgentRunner, Provider } from "../lib/agent/runner.ts";
import type { LocusConfig } from "../lib/config/index.ts";
import { DEFAULT_ACP_ENV } from "../lib/config/schema.ts";
import { mcpServerList } from "../lib/agent/mcp/mcp-server-settings.ts";
import type { ModelClient } from "../lib/agent/model-client.ts";
import type { ModelHostConnection } from "../lib/model-host/connect-model-host.ts";
import type { Sandbox } from "../lib/sandbox/sandbox.ts";

function acpSettings(config: LocusConfig): AcpSettings {
  const acp = config.agent.acp;
  return {
    ...(acp?.command === undefined ? {} : { command: acp.command }),
    env: acp?.env ?? DEFAULT_ACP_ENV,
    ...(acp?.costPerToolCallUsd === undefined ? {} : { costPerToolCallUsd: acp.costPerToolCallUsd }),
  };
}

/**
 * A cloud host's model client for the built-in runner (agent.modelHost bedrock or vertex), made
 * on first use: its credentials come from the run's OIDC token, traded just before the agent's
 * first turn. A failed exchange is the provider being unavailable: the task fails with the
 * cloud's reason before any model call.
 */
export type ConnectModelHost = () => Promise<ModelHostConnection | undefined>;

async function cloudClient(
  provider: Provider,
  config: LocusConfig,
  connect: ConnectModelHost | undefined,
): Promise<ModelClient | undefined> {
  const host = config.agent.modelHost;
  if (host === "anthropic" || connect === undefined) return undefined;
  const { ProviderUnavailableError } = await import("../lib/agent/create-runner.ts");
  if (provider !== "builtin") {
    throw new ProviderUnavailableError(
      provider,
      `agent.modelHost ${host} serves the built-in runner only; ${provider} reaches its model with its own settings (docs/providers.md)`,
    );
  }
  try {
    return (await connect())?.client;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ProviderUnavailableError(provider, `the run got no ${host} credentials: ${why}`);
  }
}

export function createAgentRunner(
  provider: Provider,
  config: LocusConfig,
  env: Readonly<Record<string, string | undefined>>,
  apiKey: string,
  sandbox: Sandbox,
  connect?: ConnectModelHost,
): AgentRunner {
  let loaded: Promise<AgentRunner> | undefined;
  const runner = (): Promise<AgentRunner> =>
    (loaded ??= (async () => {
      const client = await cloudClient(provider, config, connect);
      const { createRunner } = await import("../lib/agent/create-runner.ts");
      return createRunner(provider, {
        env: { ...env, ANTHROPIC_API_KEY: apiKey || env["ANTHROPIC_API_KEY"] },
        shell: config.shell,
        acp: acpSettings(config),
        mcpServers: mcpServerList(config.agent.mcpServers),
        hooks: config.agent.hooks ?? [],
        sandbox,
        ...(client ? { client } : {}),
      });
    })());
  return {
    name: provider,
    isAvailable: async () => (await runner()).isAvailable(),
    version: async () => (await runner()).version(),
    execute: async (options) => (await runner()).execute(options),
  };
}
