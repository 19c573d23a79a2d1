/** The agent runner of the configured provider; it strips every secret from the environment its tools see. */
import { createRunner, type AgentRunner, type Provider } from "../lib/agent/runner.ts";
import type { LocusConfig } from "../lib/config/index.ts";

export function createAgentRunner(
  provider: Provider,
  config: LocusConfig,
  env: Readonly<Record<string, string | undefined>>,
  apiKey: string,
): AgentRunner {
  return createRunner(provider, {
    env: { ...env, ANTHROPIC_API_KEY: apiKey || env["ANTHROPIC_API_KEY"] },
    shell: config.shell,
  });
}
