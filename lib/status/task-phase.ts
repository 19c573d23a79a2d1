/**
 * The phase of an issue's task as its status comment shows it: queued,
 * working (with the tool the agent is using and its turn), pull request open,
 * failed (with the reason and what to do). Pure: the Action's live updater
 * (`lib/task/live-status.ts`) and the task's own transitions feed it.
 */
import { untrustedLine } from "../render/markdown.ts";
import { isAbsolute, relative } from "node:path";
import type { StatusView } from "./status-comment.ts";

/** What the agent is doing right now: `running` + `npm test`, `editing` + `src/a.ts`. */
export interface ToolActivity {
  readonly verb: string;
  /** What the tool acts on, shown as code. */
  readonly target?: string;
}

export type TaskPhase =
  | { readonly kind: "queued" }
  | { readonly kind: "working"; readonly activity?: ToolActivity; readonly turn?: number }
  | { readonly kind: "pr-open"; readonly pr: number }
  | { readonly kind: "waiting"; readonly questions: readonly string[] }
  | { readonly kind: "failed"; readonly reason: string; readonly nextStep: string };

/** Long commands are cut: the status line is a glance, the run's log has the rest. */
const MAX_TARGET = 80;

type Params = Readonly<Record<string, unknown>>;

function text(params: Params, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = params[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return undefined;
}

function inWorktree(path: string, cwd: string): string {
  return isAbsolute(path) ? relative(cwd, path) || "." : path;
}

function pathOf(params: Params, cwd: string): string | undefined {
  const path = text(params, "path", "file_path", "notebook_path");
  if (path !== undefined) return inWorktree(path, cwd);
  const paths = params["paths"];
  if (Array.isArray(paths) && paths.every((p) => typeof p === "string") && paths.length > 0) {
    return paths.map((p) => inWorktree(p, cwd)).join(", ");
  }
  return undefined;
}

function activity(verb: string, target: string | undefined): ToolActivity {
  return target === undefined ? { verb } : { verb, target };
}

/**
 * A tool call as an activity, whatever the provider named the tool: the
 * built-in tools, Claude Code's (`Bash`, `Edit`, `Read`, …) and the names the
 * Codex stream maps to (`run_shell`, `edit_file` with `paths`).
 */
export function toolActivity(tool: string, params: Params, cwd: string): ToolActivity {
  switch (tool) {
    case "run_shell":
    case "Bash":
      return activity("running", text(params, "command"));
    case "edit_file":
    case "Edit":
    case "MultiEdit":
    case "NotebookEdit":
      return activity("editing", pathOf(params, cwd));
    case "write_file":
    case "Write":
      return activity("writing", pathOf(params, cwd));
    case "read_file":
    case "Read":
      return activity("reading", pathOf(params, cwd));
    case "search_text":
    case "Grep":
      return activity("searching for", text(params, "pattern"));
    case "list_files":
    case "Glob":
    case "LS":
      return activity("listing files", text(params, "glob", "pattern") ?? pathOf(params, cwd));
    case "ask_user":
      return { verb: "asking you a question" };
    case "finish":
      return { verb: "wrapping up" };
    default:
      return { verb: "using", target: tool };
  }
}

/** Inline code holding any non-blank text on one line: a fence longer than any backtick run inside. */
export function codeSpan(raw: string): string {
  const flat = raw.replace(/\s+/g, " ").trim();
  const cut = flat.length > MAX_TARGET ? `${flat.slice(0, MAX_TARGET - 1)}…` : flat;
  const longest = Math.max(0, ...(cut.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = cut.startsWith("`") || cut.endsWith("`") ? " " : "";
  return `${fence}${pad}${cut}${pad}${fence}`;
}

function describeActivity(doing: ToolActivity): string {
  return doing.target === undefined || doing.target.trim() === ""
    ? doing.verb
    : `${doing.verb} ${codeSpan(doing.target)}`;
}

/** What a person can do after a failure, given where the work so far was saved. */
export function failureNextStep(checkpoint: string | undefined): string {
  return checkpoint
    ? `the work so far is saved on \`${checkpoint}\`; fix what stopped it if it needs a person, then comment \`/locus run\` to continue from there.`
    : "fix what stopped it if it needs a person, then comment `/locus run` to try again.";
}

/**
 * A question on one line of a list item, cut like a target, pinging nobody. Cut before it is made
 * safe: a code span cut open reads as prose, so what it held must be defused as prose.
 */
function oneLine(question: string): string {
  const flat = question.replace(/\s+/g, " ").trim();
  return untrustedLine(flat.length > 300 ? `${flat.slice(0, 299)}…` : flat);
}

export function phaseView(phase: TaskPhase): StatusView {
  switch (phase.kind) {
    case "queued":
      return { headline: "Queued." };
    case "working": {
      if (!phase.activity) return { headline: "Working — getting started." };
      const turn = phase.turn ? ` (turn ${phase.turn})` : "";
      return { headline: `Working — ${describeActivity(phase.activity)}${turn}` };
    }
    case "pr-open":
      return { headline: `Pull request #${phase.pr} is ready for review.` };
    case "failed":
      return {
        headline: `Failed: ${untrustedLine(phase.reason)}`,
        details: [{ label: "What to do", line: phase.nextStep }],
      };
    case "waiting":
      return {
        headline:
          "Waiting for an answer to its question. Answer in a comment here (or `/locus answer <text>`) and Locus continues.",
        details: phase.questions.map((question) => ({ label: "Question", line: oneLine(question) })),
      };
  }
}
