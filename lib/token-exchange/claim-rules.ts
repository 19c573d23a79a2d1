/**
 * Which workflow runs may trade their OIDC token for a Locus token, as pure
 * rules over the verified claims and facts read from GitHub. A run qualifies
 * when it runs the repository's configured Locus workflow (or the stale
 * sweep) from the default branch, started by a dispatch or the schedule, and
 * its job is that workflow or the reusable Locus workflow it calls. A workflow
 * someone else pushed to the repository, a branch's copy of the Locus
 * workflow, or a pull request (a fork's above all) gets nothing.
 */
import type { ActionsClaims } from "./claims.ts";
import { refuse } from "./refusal.ts";

const STALE_WORKFLOW = "locus-stale.yml";
/** The reusable workflow that repositories' `locus.yml` calls, whatever its version. */
export const DEFAULT_REUSABLE_WORKFLOWS: readonly string[] = ["locus-dev/locus/.github/workflows/locus.yml"];

const EVENTS = new Set(["workflow_dispatch", "schedule", "workflow_call"]);

export type WorkflowKind = "locus" | "stale";

export interface RepositoryExpectation {
  readonly repositoryId: string;
  readonly defaultBranch: string;
  /** The config's `workflow`: the file the app dispatches. */
  readonly workflow: string;
  /** `owner/repo/.github/workflows/file.yml` of reusable workflows a Locus job may run. */
  readonly reusableWorkflows: readonly string[];
}

function pathOf(ref: string): string {
  const at = ref.lastIndexOf("@");
  return (at === -1 ? ref : ref.slice(0, at)).toLowerCase();
}

/** Checks the claims against the repository; answers which Locus workflow the run is. */
export function checkWorkflowClaims(claims: ActionsClaims, expected: RepositoryExpectation): WorkflowKind {
  if (claims.repository_id !== expected.repositoryId) {
    refuse(
      "wrong-repository",
      `the token names repository id ${claims.repository_id}, not ${claims.repository}'s`,
    );
  }
  if (!EVENTS.has(claims.event_name)) {
    refuse(
      "wrong-event",
      `a run started by ${claims.event_name} gets no token; only dispatched and scheduled Locus runs do`,
    );
  }
  const ref = `refs/heads/${expected.defaultBranch}`;
  if (claims.ref !== ref) refuse("wrong-ref", `the run is on ${claims.ref}, not the default branch ${ref}`);
  const file = (name: string) => `${claims.repository}/.github/workflows/${name}@${ref}`.toLowerCase();
  const workflowRef = claims.workflow_ref.toLowerCase();
  const kind: WorkflowKind | undefined =
    workflowRef === file(expected.workflow)
      ? "locus"
      : workflowRef === file(STALE_WORKFLOW)
        ? "stale"
        : undefined;
  if (!kind) {
    refuse(
      "wrong-workflow",
      `${claims.workflow_ref} is not the repository's Locus workflow (.github/workflows/${expected.workflow} on ${expected.defaultBranch})`,
    );
  }
  if (kind === "locus" && claims.event_name === "schedule") {
    refuse("wrong-event", `the Locus workflow is dispatched, never scheduled`);
  }
  const jobPath = pathOf(claims.job_workflow_ref);
  const reusable = expected.reusableWorkflows.some((path) => path.toLowerCase() === jobPath);
  if (claims.job_workflow_ref.toLowerCase() !== workflowRef && !reusable) {
    refuse("wrong-workflow", `the job runs ${claims.job_workflow_ref}, which is not a Locus workflow`);
  }
  return kind;
}
