import { z } from "zod";
import { GitHubError, statusOf } from "./errors.ts";
import { permissionSchema, repositorySchema, workflowDispatchSchema, workflowRunsSchema } from "./schemas.ts";
import type { Transport } from "./transport-types.ts";
import type { DispatchedRun, GitHubGateway, Permission } from "./types.ts";

type RepositoryOps = Pick<
  GitHubGateway,
  | "getDefaultBranch"
  | "getCollaboratorPermission"
  | "getFileContent"
  | "dispatchWorkflow"
  | "listWorkflowRuns"
  | "cancelWorkflowRun"
>;

const PERMISSIONS: readonly Permission[] = ["admin", "maintain", "write", "triage", "read", "none"];

function isPermission(value: string | undefined): value is Permission {
  return PERMISSIONS.includes(value as Permission);
}

/** An Enterprise Server whose dispatch API lacks `return_run_details` answers 422 naming the key. */
function refusesRunDetails(error: unknown): boolean {
  return statusOf(error) === 422 && error instanceof Error && error.message.includes("return_run_details");
}

export function repositoryOps(t: Transport): RepositoryOps {
  const listWorkflowRuns: RepositoryOps["listWorkflowRuns"] = async (workflow, filter = {}) => {
    const runs = await t.rest(
      "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs",
      {
        workflow_id: workflow,
        per_page: filter.perPage ?? 100,
        ...(filter.status === undefined ? {} : { status: filter.status }),
        ...(filter.branch === undefined ? {} : { branch: filter.branch }),
        ...(filter.event === undefined ? {} : { event: filter.event }),
      },
      workflowRunsSchema,
    );
    return runs.workflow_runs;
  };

  return {
    async getDefaultBranch() {
      const repo = await t.rest("GET /repos/{owner}/{repo}", {}, repositorySchema);
      return repo.default_branch;
    },
    async getCollaboratorPermission(user) {
      const found = await t.restOrNull(
        "GET /repos/{owner}/{repo}/collaborators/{username}/permission",
        { username: user },
        permissionSchema,
      );
      if (!found) return "none";
      // `permission` folds maintain into write and triage into read; `role_name`
      // keeps them, but names a custom role as itself, so fall back for those.
      if (isPermission(found.role_name)) return found.role_name;
      return isPermission(found.permission) ? found.permission : "none";
    },
    async getFileContent(path, ref) {
      const route = "GET /repos/{owner}/{repo}/contents/{path}";
      // The raw format returns the bytes themselves (up to 100 MB) rather than
      // base64 JSON that stops at 1 MB; a directory still answers with JSON.
      const content = await t.restOrNull(
        route,
        { path, ...(ref === undefined ? {} : { ref }) },
        z.union([z.string(), z.instanceof(ArrayBuffer), z.array(z.unknown())]),
        "raw",
      );
      if (content === null || typeof content === "string") return content;
      if (content instanceof ArrayBuffer) return new TextDecoder().decode(content);
      throw new GitHubError(`${path} is a directory, not a file; name a file in the repository.`, 200, route);
    },
    async dispatchWorkflow(workflow, ref, inputs) {
      const delivery = inputs["delivery"];
      const route = "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches";
      // The run's name carries its delivery id in parentheses (the dispatch
      // contract); a dispatch without one cannot be recognised.
      const landed = async (): Promise<DispatchedRun | null> => {
        if (!delivery) return null;
        const runs = await listWorkflowRuns(workflow, { event: "workflow_dispatch" });
        const run = runs.find((candidate) => candidate.displayTitle.includes(`(${delivery})`));
        return run ? { id: run.id, url: run.url } : null;
      };
      return t.create<DispatchedRun | null>({
        what: `run of ${workflow}${delivery ? ` for delivery ${delivery}` : ""}`,
        // With `return_run_details` GitHub names the run it started (200), so the
        // run is known without waiting for it to be listed; a GitHub without the
        // parameter ignores it (204), or, on some Enterprise Server releases,
        // refuses the unknown key (422): then the dispatch goes again without it
        // and the run is found by its name.
        send: async (once) => {
          try {
            return await once.rest(
              route,
              { workflow_id: workflow, ref, inputs, return_run_details: true },
              workflowDispatchSchema,
            );
          } catch (error) {
            if (!refusesRunDetails(error)) throw error;
            await once.rest(route, { workflow_id: workflow, ref, inputs }, workflowDispatchSchema);
            return landed();
          }
        },
        landed,
      });
    },
    listWorkflowRuns,
    async cancelWorkflowRun(runId) {
      try {
        await t.rest(
          "POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel",
          { run_id: runId },
          z.unknown(),
        );
        return "cancelled";
      } catch (error) {
        // 409: the run finished before the cancel arrived, which is an ordinary race.
        if (statusOf(error) === 409) return "already-finished";
        throw error;
      }
    },
  };
}
