/**
 * GitHub's rules for `POST …/actions/workflows/{workflow_id}/dispatches`,
 * checked against the workflow file as it is in the repository at the
 * dispatched ref: the workflow must exist (404), must have the
 * `workflow_dispatch` trigger, and takes only the inputs it declares, at most
 * 25 of them and 65,535 characters in all (422). A GitHub Enterprise Server
 * release without run details refuses `return_run_details` as an unknown key.
 * https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event
 * https://docs.github.com/actions/writing-workflows/workflow-syntax-for-github-actions#onworkflow_dispatchinputs
 */
import { parseWorkflow } from "./workflow-yaml.ts";
import { readPath } from "./git.ts";
import { HttpError } from "./http-error.ts";

const DOCS = "https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event";
export const MAX_DISPATCH_INPUTS = 25;
export const MAX_DISPATCH_INPUT_CHARS = 65_535;

function refuse(message: string): HttpError {
  return new HttpError(422, { message, documentation_url: DOCS, status: "422" });
}

interface DeclaredInput {
  readonly required: boolean;
  readonly fallback: string;
}

/** The `workflow_dispatch` inputs a workflow file declares; null when it has no such trigger. */
export function dispatchTrigger(text: string): Map<string, DeclaredInput> | null {
  let workflow: unknown;
  try {
    workflow = parseWorkflow(text);
  } catch {
    return null;
  }
  const on = (workflow as { on?: unknown } | null)?.on;
  if (on === "workflow_dispatch") return new Map();
  if (Array.isArray(on)) return on.includes("workflow_dispatch") ? new Map() : null;
  if (typeof on !== "object" || on === null || !("workflow_dispatch" in on)) return null;
  const trigger = (on as { workflow_dispatch?: { inputs?: Record<string, unknown> } | null })
    .workflow_dispatch;
  const declared = new Map<string, DeclaredInput>();
  for (const [name, spec] of Object.entries(trigger?.inputs ?? {})) {
    const { required, default: fallback } = (spec ?? {}) as { required?: unknown; default?: unknown };
    declared.set(name, {
      required: required === true && fallback === undefined,
      fallback:
        typeof fallback === "string" || typeof fallback === "number" || typeof fallback === "boolean"
          ? String(fallback)
          : "",
    });
  }
  return declared;
}

export interface DispatchedWorkflow {
  /** The `inputs` context of the run: what was sent, and each other declared input's default. */
  readonly inputs: Record<string, string>;
  /** The workflow's `run-name`, unevaluated, if it has one. */
  readonly runName: string | undefined;
  /** The workflow file's text at the ref. */
  readonly text: string;
}

/** Throws GitHub's answer when the dispatch breaks a rule; the workflow file is read at `sha`. */
export async function checkDispatch(
  gitDir: string,
  sha: string,
  workflowPath: string,
  inputs: Record<string, string>,
): Promise<DispatchedWorkflow> {
  const file = await readPath(gitDir, sha, workflowPath);
  const declared = file?.type === "file" ? dispatchTrigger(file.content.toString("utf8")) : null;
  if (!declared) throw refuse("Workflow does not have 'workflow_dispatch' trigger");
  const names = Object.keys(inputs);
  if (names.length > MAX_DISPATCH_INPUTS)
    throw refuse(
      `you may only define up to ${MAX_DISPATCH_INPUTS} \`inputs\` for a \`workflow_dispatch\` event`,
    );
  if (JSON.stringify(inputs).length > MAX_DISPATCH_INPUT_CHARS)
    throw refuse(`inputs are too large (at most ${MAX_DISPATCH_INPUT_CHARS} characters in all)`);
  const unexpected = names.filter((name) => !declared.has(name));
  if (unexpected.length > 0) throw refuse(`Unexpected inputs provided: ${JSON.stringify(unexpected)}`);
  const context: Record<string, string> = {};
  for (const [name, input] of declared) {
    if (input.required && (inputs[name] ?? "") === "") throw refuse(`Required input '${name}' not provided`);
    context[name] = inputs[name] ?? input.fallback;
  }
  const text = file?.type === "file" ? file.content.toString("utf8") : "";
  const runName = (parseWorkflow(text) as { "run-name"?: unknown })["run-name"];
  return { inputs: context, runName: typeof runName === "string" ? runName : undefined, text };
}

/** What an Enterprise Server without run details answers to `return_run_details`. */
export function runDetailsNotPermitted(): HttpError {
  return new HttpError(422, {
    message: 'Invalid request.\n\n"return_run_details" is not a permitted key.',
    documentation_url: DOCS,
    status: "422",
  });
}
