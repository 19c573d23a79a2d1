/**
 * The factory that picks an agent provider from config. Apart from the interface
 * (`runner.ts`) because every provider imports that one: together they would be a cycle.
 */
import { createBuiltinRunner, type BuiltinRunnerOptions } from "./builtin-runner.ts";
import type { AgentRunner, Provider } from "./runner.ts";
import { createAcpRunner } from "./runners/acp-runner.ts";
import { createClaudeCodeRunner } from "./runners/claude-code-runner.ts";
import { createCodexRunner } from "./runners/codex-runner.ts";

export { ProviderUnavailableError } from "./runners/provider-unavailable-error.ts";

export function createRunner(provider: Provider, options: BuiltinRunnerOptions): AgentRunner {
  switch (provider) {
    case "builtin":
      return createBuiltinRunner(options);
    case "claude-code":
      return createClaudeCodeRunner(options);
    case "codex":
      return createCodexRunner(options);
    case "acp":
      return createAcpRunner(options);
  }
}
