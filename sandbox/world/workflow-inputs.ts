/**
 * The inputs the Locus Action step receives, worked out the way GitHub does
 * from the repository's own caller workflow: its job's `with:` and
 * `secrets:` evaluated against the repository's variables and secrets, then
 * the reusable workflow's Action step's `with:` against those. A variable
 * the caller workflow names but the repository lacks comes out empty, as on
 * GitHub, so a run set up under another name gets no `app-url`.
 * https://docs.github.com/actions/sharing-automations/reusing-workflows#passing-inputs-and-secrets-to-a-reusable-workflow
 * https://docs.github.com/actions/writing-workflows/choosing-what-your-workflow-does/store-information-in-variables#using-the-vars-context-to-access-configuration-variable-values
 */
import { parse } from "yaml";
import { evaluateTemplate, type ExpressionContexts } from "../github-sim/workflow-expressions.ts";

/** A repository's Actions variables and secrets (Settings → Secrets and variables → Actions). */
export interface RepositoryActionsSettings {
  readonly vars: Readonly<Record<string, string>>;
  readonly secrets: Readonly<Record<string, string>>;
}

interface Job {
  uses?: string;
  with?: Record<string, unknown>;
  secrets?: Record<string, unknown> | "inherit";
  steps?: Array<{ uses?: string; with?: Record<string, unknown> }>;
}

interface Workflow {
  on?: { workflow_call?: { inputs?: Record<string, { default?: unknown } | null> } };
  jobs?: Record<string, Job>;
}

/** A YAML scalar as the text GitHub reads it; anything else is empty. */
function scalar(value: unknown): string {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : "";
}

function firstJob(text: string): Job {
  const [job] = Object.values((parse(text) as Workflow | null)?.jobs ?? {});
  if (!job) throw new Error("the workflow has no job");
  return job;
}

function evaluated(
  values: Record<string, unknown> | undefined,
  contexts: ExpressionContexts,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values ?? {}).map(([key, value]) => [key, evaluateTemplate(scalar(value), contexts)]),
  );
}

export function locusStepInputs(options: {
  /** The repository's caller workflow at the run's commit. */
  readonly caller: string;
  /** Reusable workflows by `uses` without `@ref`. */
  readonly called: Readonly<Record<string, string>>;
  /** The Locus Action's `uses` without `@ref`. */
  readonly action: string;
  readonly dispatchInputs: Readonly<Record<string, string>>;
  readonly settings: RepositoryActionsSettings;
  readonly githubToken: string;
}): Record<string, string> {
  const job = firstJob(options.caller);
  const reusable = job.uses === undefined ? undefined : options.called[job.uses.replace(/@[^@]*$/, "")];
  if (reusable === undefined)
    throw new Error(`the caller's job uses ${job.uses ?? "no workflow"}, unknown here`);
  const github = { token: options.githubToken };
  const callerContexts = {
    inputs: options.dispatchInputs,
    vars: options.settings.vars,
    secrets: options.settings.secrets,
    github,
  };
  const declared = (parse(reusable) as Workflow | null)?.on?.workflow_call?.inputs ?? {};
  const inputs = {
    ...Object.fromEntries(Object.entries(declared).map(([name, spec]) => [name, scalar(spec?.default)])),
    ...evaluated(job.with, callerContexts),
  };
  const secrets =
    job.secrets === "inherit" ? { ...options.settings.secrets } : evaluated(job.secrets, callerContexts);
  const step = firstJob(reusable).steps?.find(
    (candidate) => candidate.uses?.replace(/@[^@]*$/, "") === options.action,
  );
  if (!step) throw new Error(`the reusable workflow has no ${options.action} step`);
  return evaluated(step.with, { inputs, secrets, github });
}
