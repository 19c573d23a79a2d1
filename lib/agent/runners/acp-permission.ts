/**
 * How Locus answers an ACP agent's `session/request_permission`: from the repository's shell
 * policy for commands, from the worktree's bounds for edits, and never with "allow always", so
 * every later call is asked again (and checked again) rather than waved through. Pure: the caller
 * resolves the locations and passes whether they are all inside the worktree.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { decideShellCommand, type ShellPolicy } from "../../config/shell-policy.ts";

export interface PermissionFacts {
  readonly toolCall: acp.ToolCallUpdate;
  readonly options: readonly acp.PermissionOption[];
  readonly shell: ShellPolicy;
  /** Plan, review and ask: nothing may change the worktree or run. */
  readonly readOnly: boolean;
  /** Every location the tool call names resolves inside the worktree (true when it names none). */
  readonly locationsInside: boolean;
}

export interface PermissionAnswer {
  readonly allowed: boolean;
  readonly outcome: acp.RequestPermissionOutcome;
  /** Why, in a sentence for the tool card. */
  readonly reason: string;
}

const READING: readonly (acp.ToolKind | undefined)[] = ["read", "search", "think", "fetch", "switch_mode"];

/** The command an `execute` tool call will run, as agents report it: `rawInput.command` (a string or argv), else the title. */
export function commandOf(toolCall: acp.ToolCallUpdate): string | undefined {
  const raw = toolCall.rawInput;
  if (typeof raw === "object" && raw !== null && "command" in raw) {
    const command: unknown = raw.command;
    if (typeof command === "string" && command.trim() !== "") return command;
    if (Array.isArray(command) && command.every((part) => typeof part === "string")) {
      const argv: readonly string[] = command;
      // `["bash", "-lc", "npm test"]`: the script is what the policy must see.
      if (argv.length === 3 && /^(?:ba|z)?sh$/.test(argv[0] ?? "") && /^-l?c$/.test(argv[1] ?? ""))
        return argv[2];
      return argv.join(" ");
    }
  }
  return toolCall.title ?? undefined;
}

function verdict(facts: PermissionFacts): { allowed: boolean; reason: string } {
  const { toolCall, readOnly } = facts;
  const kind = toolCall.kind ?? "other";
  if (!facts.locationsInside)
    return { allowed: false, reason: "it names a path outside the worktree (or inside .git)" };
  if (READING.includes(kind)) return { allowed: true, reason: `${kind} is allowed` };
  if (readOnly) return { allowed: false, reason: `this run is read-only; ${kind} is not allowed` };
  if (kind !== "execute") return { allowed: true, reason: `${kind} inside the worktree is allowed` };
  const command = commandOf(toolCall);
  if (command === undefined) return { allowed: false, reason: "the command to run was not given" };
  const decision = decideShellCommand(command, facts.shell);
  if (decision.allowed) return { allowed: true, reason: `\`${command}\` is allowed by the shell policy` };
  return {
    allowed: false,
    reason:
      decision.reason === "denied"
        ? `\`${decision.matched}\` matches the denied pattern \`${decision.pattern}\``
        : `\`${decision.matched}\` matches none of the allowed shell patterns`,
  };
}

export function answerPermission(facts: PermissionFacts): PermissionAnswer {
  const { allowed, reason } = verdict(facts);
  const pick = (kinds: readonly acp.PermissionOptionKind[]) =>
    kinds.map((kind) => facts.options.find((option) => option.kind === kind)).find(Boolean);
  const option = allowed ? pick(["allow_once"]) : pick(["reject_once", "reject_always"]);
  if (option !== undefined)
    return { allowed, outcome: { outcome: "selected", optionId: option.optionId }, reason };
  const missing = allowed
    ? `${reason}, but the agent offered no "allow once" option and Locus never allows always`
    : reason;
  return { allowed: false, outcome: { outcome: "cancelled" }, reason: missing };
}
