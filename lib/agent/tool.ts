/**
 * The contract between the agent loop and its tools. A tool validates its own
 * input (zod), never throws for a bad call (an error result tells the model what
 * to fix), and returns a one-line summary the loop uses for compact cards and
 * for the short tier of the two-tier context.
 */
import type { z } from "zod";
import type { Sandbox } from "../sandbox/sandbox.ts";

export interface ShellPolicy {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
  readonly timeoutSeconds: number;
}

/** A command run around file edits (formatter, linter); its output goes back to the model. */
export interface EditHook {
  readonly when: "before-edit" | "after-edit";
  /** Glob over the edited path, e.g. `*.ts`; every file when absent. */
  readonly files?: string;
  /** `{path}` is replaced by the edited file's path, shell-quoted. */
  readonly command: string;
}

/** A command run around the agent's own commands (an audit, a guard, a cleanup). */
export interface CommandHook {
  readonly when: "before-command" | "after-command";
  /** Shell-policy glob over the agent's command (e.g. `npm *`); every command when absent. */
  readonly commands?: string;
  /** `{command}` is replaced by the agent's command, shell-quoted. */
  readonly command: string;
}

/** Config `agent.hooks`: commands run at the tool boundary, around writes and commands. */
export type AgentHook = EditHook | CommandHook;

export interface ToolContext {
  /** Absolute path of the worktree: every path is resolved inside it. */
  readonly cwd: string;
  readonly signal: AbortSignal;
  readonly shell: ShellPolicy;
  readonly hooks: readonly AgentHook[];
  /** Environment for child processes, already stripped of secrets. */
  readonly env: Readonly<Record<string, string>>;
  /** Where every command runs (the Action always sets it; absent, commands run unconfined). */
  readonly sandbox?: Sandbox;
  /** Records a question for the people behind the task; the run ends after the turn. */
  readonly onQuestion: (question: string) => void;
}

export interface ToolResult {
  readonly content: string;
  readonly isError: boolean;
  /** One line: `Read src/a.ts (245 lines)`, `Bash npm test → exit 1`. */
  readonly summary: string;
  /** Unified diff of an edit or write, for event cards and PR logs. */
  readonly diff?: string;
  /** Paths written, relative to the worktree. */
  readonly filesWritten?: readonly string[];
}

export interface AgentTool<Schema extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Schema;
  /** The schema the model sees, when the tool's own is JSON Schema (an MCP server's) rather than zod. */
  readonly inputJsonSchema?: Record<string, unknown>;
  /** Read-only tools are the only ones given to plan, review and ask modes. */
  readonly readOnly: boolean;
  /**
   * As a CLI or ACP agent's final structured answer: the task copes without it,
   * so a missing or invalid answer is reported and the run still succeeds.
   */
  readonly optionalAnswer?: boolean;
  run(input: z.infer<Schema>, context: ToolContext): Promise<ToolResult>;
}
