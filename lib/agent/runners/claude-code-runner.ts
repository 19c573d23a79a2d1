import type { AgentRunner, RunnerOptions } from "../runner.ts";
export function createClaudeCodeRunner(_options: RunnerOptions): AgentRunner {
  throw new Error("later");
}
