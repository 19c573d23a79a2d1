/**
 * The dispatch contract between the app and the Action (docs/contracts.md): every
 * workflow_dispatch input is a string, and the run's name carries mode, target
 * and delivery so a finished run can be traced back to its work.
 */

export const MODES = [
  "issue",
  "sprint",
  "iterate",
  "review",
  "plan",
  "ask",
  "stale",
  "fix-ci",
  "rebase",
] as const;
export type Mode = (typeof MODES)[number];

export interface DispatchRequest {
  readonly mode: Mode;
  /** Issue numbers (mode issue), or the issue a plan/ask runs on. */
  readonly issues?: readonly number[];
  readonly pr?: number;
  readonly milestone?: number;
  readonly command?: string;
  readonly delivery: string;
}

export interface DispatchInputs {
  mode: Mode;
  issue: string;
  pr: string;
  milestone: string;
  command: string;
  delivery: string;
  [key: string]: string;
}

export function dispatchInputs(request: DispatchRequest): DispatchInputs {
  return {
    mode: request.mode,
    issue: (request.issues ?? []).join(" "),
    pr: request.pr === undefined ? "" : String(request.pr),
    milestone: request.milestone === undefined ? "" : String(request.milestone),
    command: (request.command ?? "").trim(),
    delivery: request.delivery,
  };
}

/** The number a run works on: the milestone, the PR, or the (first) issue. */
export function dispatchTarget(request: DispatchRequest): number | undefined {
  switch (request.mode) {
    case "sprint":
      return request.milestone;
    case "iterate":
    case "review":
    case "fix-ci":
    case "rebase":
      return request.pr;
    case "issue":
    case "plan":
    case "ask":
    case "stale":
      return request.pr ?? request.issues?.[0];
  }
}

/** `Locus <mode> #<number> (<delivery>)`: the reusable workflow's `run-name`. */
export function runName(mode: Mode, target: number | undefined, delivery: string): string {
  return `Locus ${mode}${target === undefined ? "" : ` #${target}`} (${delivery})`;
}

export interface ParsedRunName {
  readonly mode: Mode;
  readonly target: number | undefined;
  readonly delivery: string;
}

// A run over several issues is named by all of them (`#3 5 8`); its target is the first.
const RUN_NAME = /^Locus ([a-z]+(?:-[a-z]+)?)(?: #([1-9][0-9]*)(?: [1-9][0-9]*)*)? \(([^()\s]+)\)$/;

export function parseRunName(title: string): ParsedRunName | undefined {
  const match = RUN_NAME.exec(title.trim());
  const mode = match?.[1];
  const delivery = match?.[3];
  if (!mode || !delivery || !(MODES as readonly string[]).includes(mode)) return undefined;
  return { mode: mode as Mode, target: match[2] === undefined ? undefined : Number(match[2]), delivery };
}
