/**
 * The `claude-code` provider: Claude Code in print mode, `claude -p --output-format stream-json
 * --verbose`, the task on stdin and Locus's rules appended to its system prompt. Claude Code
 * runs its own tools; Locus's shell deny list is passed as `--disallowedTools Bash(<prefix>:*)`
 * where a pattern is a plain prefix. Its Bash tool inherits the credentials Claude Code needs
 * (the Anthropic key), unlike the built-in provider's scrubbed shell. A task's own tool (plan,
 * review) becomes `--json-schema <schema>` (print mode only): Claude Code works as usual, then
 * answers with JSON validated against the schema, reported in the result's `structured_output`
 * (documented in https://code.claude.com/docs/en/cli-reference and, under "Get structured
 * output", https://code.claude.com/docs/en/headless). MCP servers from config go in as
 * `--mcp-config` (cli-mcp-config.ts).
 */
import type { AgentRunner, RunnerOptions } from "../runner.ts";
import { claudeCodeStream } from "./claude-code-stream.ts";
import { withCredentials } from "./cli-environment.ts";
import { claudeMcpArgs, mcpSecretNames } from "./cli-mcp-config.ts";
import { createSubprocessRunner } from "./subprocess-runner.ts";

const CREDENTIALS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
  "CLAUDE_CODE_OAUTH_TOKEN",
];

/** `git push*` → `Bash(git push:*)`; patterns with a wildcard elsewhere have no Claude Code form. */
function disallowedBash(deny: readonly string[]): string[] {
  return deny.flatMap((pattern) => {
    const prefix = pattern.slice(0, -1);
    return pattern.endsWith("*") && !prefix.includes("*") && prefix.trim() !== ""
      ? [`Bash(${prefix.trimEnd()}:*)`]
      : [];
  });
}

export function createClaudeCodeRunner(
  options: RunnerOptions & { readonly now?: () => number },
): AgentRunner {
  const now = options.now ?? Date.now;
  const denied = disallowedBash(options.shell.deny);
  return createSubprocessRunner(
    {
      provider: "claude-code",
      command: "claude",
      install: "Claude Code (npm i -g @anthropic-ai/claude-code)",
      args: (execute, schema) => [
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        "--model",
        execute.model,
        "--max-turns",
        String(execute.maxTurns),
        ...(execute.prompt.system.trim() === "" ? [] : ["--append-system-prompt", execute.prompt.system]),
        ...(execute.readOnly ? ["--permission-mode", "plan"] : ["--dangerously-skip-permissions"]),
        ...(denied.length === 0 ? [] : ["--disallowedTools", denied.join(",")]),
        ...(schema ? ["--json-schema", schema.json] : []),
        ...claudeMcpArgs(options.mcpServers ?? []),
      ],
      stdin: (execute) =>
        [execute.prompt.context, execute.prompt.task].filter((part) => part.trim() !== "").join("\n\n"),
      env: (env) => withCredentials(env, [...CREDENTIALS, ...mcpSecretNames(options.mcpServers ?? [])]),
      parser: (tally, execute) =>
        claudeCodeStream(tally, { cwd: execute.cwd, maxTurns: execute.maxTurns, now }),
    },
    { env: options.env, now, ...(options.sandbox ? { sandbox: options.sandbox } : {}) },
  );
}
