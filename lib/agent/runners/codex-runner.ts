/**
 * The `codex` provider: `codex exec --json` with the prompt on stdin (`-`). Codex has no system
 * prompt flag nor a turn limit: Locus's rules lead the prompt, and the time and cost limits stop
 * it instead. Writes are confined to the worktree by Codex's `workspace-write` sandbox
 * (`--full-auto`); read-only modes use its `read-only` sandbox. A task's own tool (plan, review)
 * becomes `--output-schema <file>`, a JSON Schema in OpenAI's strict form that the final
 * message follows (openai/codex docs/exec.md, "Structured output"). MCP servers from config go in
 * as `-c mcp_servers.…` overrides (cli-mcp-config.ts).
 */
import type { AgentRunner, RunnerOptions } from "../runner.ts";
import { withCredentials } from "./cli-environment.ts";
import { codexStream } from "./codex-stream.ts";
import { codexMcpArgs, mcpSecretNames } from "./cli-mcp-config.ts";
import { createSubprocessRunner } from "./subprocess-runner.ts";

const CREDENTIALS = ["OPENAI_API_KEY", "CODEX_API_KEY", "OPENAI_BASE_URL"];

export function createCodexRunner(options: RunnerOptions & { readonly now?: () => number }): AgentRunner {
  const now = options.now ?? Date.now;
  return createSubprocessRunner(
    {
      provider: "codex",
      command: "codex",
      install: "Codex CLI (npm i -g @openai/codex)",
      args: (execute, schema) => [
        "exec",
        "--json",
        "--model",
        execute.model,
        "--cd",
        execute.cwd,
        "--skip-git-repo-check",
        ...(execute.readOnly ? ["--sandbox", "read-only"] : ["--full-auto"]),
        ...(schema ? ["--output-schema", schema.file] : []),
        ...codexMcpArgs(options.mcpServers ?? []),
        "-",
      ],
      stdin: (execute) =>
        [execute.prompt.system, execute.prompt.context, execute.prompt.task]
          .filter((part) => part.trim() !== "")
          .join("\n\n"),
      env: (env) => withCredentials(env, [...CREDENTIALS, ...mcpSecretNames(options.mcpServers ?? [])]),
      parser: (tally, execute) => codexStream(tally, { cwd: execute.cwd, now }),
    },
    { env: options.env, now, ...(options.sandbox ? { sandbox: options.sandbox } : {}) },
  );
}
