/**
 * What a provider does differently from the built-in agent, said once at the start of a run so a
 * reader of the log knows what to expect: every mode runs with every provider, but not every
 * provider passes through Locus's own tool boundary or can stop to ask a question.
 */
import type { Provider } from "./runner.ts";
import type { AgentHook } from "./tool.ts";

export function providerNotes(provider: Provider): string[] {
  switch (provider) {
    case "builtin":
      return [];
    case "claude-code":
    case "codex":
      return [
        `${provider} runs its own tools: the shell deny list reaches it (${provider === "claude-code" ? "--disallowedTools" : "its workspace-write sandbox"}), Locus's edit and command hooks do not`,
        `${provider} cannot ask a question and wait for the answer (locus:waiting); it ends with its best effort`,
      ];
    case "acp":
      return [
        "acp: the agent's file reads, writes and terminals go through Locus's boundary; tools it runs inside itself do not",
        "acp: the agent cannot ask a question and wait for the answer (locus:waiting); its cost is what it reports, else agent.acp.costPerToolCallUsd per tool call, else it is stopped after 3 tool calls under a cost limit",
      ];
  }
}

/**
 * The warning for hooks configured (`agent.hooks`) for a provider that runs its own tools, where
 * Locus's boundary never sees a write or a command to run them around; undefined when none is lost.
 */
export function unreachedHooksWarning(provider: Provider, hooks: readonly AgentHook[]): string | undefined {
  if ((provider !== "claude-code" && provider !== "codex") || hooks.length === 0) return undefined;
  const kinds = [...new Set(hooks.map((hook) => hook.when))].join(", ");
  return `agent.hooks (${kinds}) will not run: ${provider} writes files and runs commands itself, outside Locus's tool boundary. Hooks run with provider builtin or acp.`;
}
