/**
 * GitHub Actions concurrency groups: in a group at most one run is running
 * and one is pending. A newer run cancels the pending one (which completes
 * with conclusion `cancelled`), and with `cancel-in-progress` the running one
 * too. The group comes from the dispatched workflow's `concurrency`, or from
 * the `concurrency` of the reusable workflow a job calls, evaluated with the
 * inputs the caller passes it.
 * https://docs.github.com/actions/writing-workflows/choosing-what-your-workflow-does/control-the-concurrency-of-workflows-and-jobs
 * https://docs.github.com/actions/sharing-automations/reusing-workflows#supported-keywords-for-jobs-that-call-a-reusable-workflow
 */
import { parseWorkflow } from "./workflow-yaml.ts";
import { evaluateTemplate, type ExpressionContexts } from "./workflow-expressions.ts";

export interface RunConcurrency {
  readonly group: string;
  readonly cancelInProgress: boolean;
}

interface WorkflowShape {
  concurrency?: string | { group?: string; "cancel-in-progress"?: boolean | string };
  on?: { workflow_call?: { inputs?: Record<string, { default?: unknown } | null> } };
  jobs?: Record<string, { uses?: string; with?: Record<string, unknown> }>;
}

function parseQuietly(text: string): WorkflowShape {
  try {
    return (parseWorkflow(text) as WorkflowShape | null) ?? {};
  } catch {
    return {};
  }
}

function own(workflow: WorkflowShape, contexts: ExpressionContexts): RunConcurrency | undefined {
  const { concurrency } = workflow;
  if (concurrency === undefined) return undefined;
  const group = typeof concurrency === "string" ? concurrency : (concurrency.group ?? "");
  const cancel = typeof concurrency === "string" ? false : concurrency["cancel-in-progress"];
  return {
    group: evaluateTemplate(group, contexts),
    cancelInProgress:
      cancel === true || (typeof cancel === "string" && evaluateTemplate(cancel, contexts) === "true"),
  };
}

/**
 * The run's concurrency group, if it has one. `called` maps a reusable
 * workflow's `uses` (without `@ref`) to its text, for the workflows the
 * simulator can read.
 */
export function runConcurrency(
  text: string,
  contexts: ExpressionContexts,
  called: Readonly<Record<string, string>>,
): RunConcurrency | undefined {
  const workflow = parseQuietly(text);
  const top = own(workflow, contexts);
  if (top) return top;
  for (const job of Object.values(workflow.jobs ?? {})) {
    const target = job.uses === undefined ? undefined : called[job.uses.replace(/@[^@]*$/, "")];
    if (target === undefined) continue;
    const reusable = parseQuietly(target);
    const inputs: Record<string, string> = {};
    for (const [name, spec] of Object.entries(reusable.on?.workflow_call?.inputs ?? {})) {
      const fallback = spec?.default;
      inputs[name] = typeof fallback === "string" || typeof fallback === "number" ? String(fallback) : "";
    }
    for (const [name, value] of Object.entries(job.with ?? {})) {
      inputs[name] = typeof value === "string" ? evaluateTemplate(value, contexts) : JSON.stringify(value);
    }
    const found = own(reusable, { ...contexts, inputs });
    if (found) return found;
  }
  return undefined;
}

/** Which runs wait in which group: one pending run per group. */
export function createConcurrencyGate() {
  const pending = new Map<string, number>();
  return {
    /** The pending run a new run displaces, if any; the new run then waits in its place. */
    wait(group: string, runId: number): number | undefined {
      const displaced = pending.get(group);
      pending.set(group, runId);
      return displaced;
    },
    /** The run to start now that the group's running run has finished. */
    release(group: string): number | undefined {
      const next = pending.get(group);
      pending.delete(group);
      return next;
    },
    isPending(runId: number): boolean {
      return [...pending.values()].includes(runId);
    },
  };
}
