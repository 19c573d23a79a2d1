import type { AgentRunner, RunnerOptions } from "../runner.ts";
export function createCodexRunner(_options: RunnerOptions): AgentRunner {
  throw new Error("later");
}
