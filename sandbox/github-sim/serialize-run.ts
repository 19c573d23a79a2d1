import type { SimCore } from "./core.ts";
import { commitInfo } from "./git.ts";
import type { Repo, Workflow, WorkflowRun } from "./model.ts";
import { minimalRepoJson } from "./serialize-repo.ts";
import { nodeId, userJson } from "./serialize-user.ts";

export function workflowJson(core: SimCore, repo: Repo, workflow: Workflow): Record<string, unknown> {
  return {
    id: workflow.id,
    node_id: nodeId("W", workflow.id),
    name: workflow.name,
    path: workflow.path,
    state: "active",
    created_at: repo.createdAt,
    updated_at: repo.createdAt,
    url: `${core.urls.api}/repos/${repo.owner}/${repo.name}/actions/workflows/${workflow.id}`,
    html_url: `${core.urls.web}/${repo.owner}/${repo.name}/blob/${repo.defaultBranch}/${workflow.path}`,
    badge_url: `${core.urls.web}/${repo.owner}/${repo.name}/workflows/${workflow.name}/badge.svg`,
  };
}

export async function workflowRunJson(
  core: SimCore,
  repo: Repo,
  run: WorkflowRun,
): Promise<Record<string, unknown>> {
  const api = `${core.urls.api}/repos/${repo.owner}/${repo.name}`;
  const url = `${api}/actions/runs/${run.id}`;
  const commit = await commitInfo(repo.gitDir, run.headSha);
  return {
    id: run.id,
    name: run.name,
    node_id: nodeId("WFR", run.id),
    check_suite_id: run.id,
    check_suite_node_id: nodeId("CS", run.id),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.workflowPath,
    display_title: run.displayTitle,
    run_number: run.runNumber,
    run_attempt: 1,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflowId,
    url,
    html_url: `${core.urls.web}/${repo.owner}/${repo.name}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    run_started_at: run.runStartedAt,
    actor: userJson(core, run.actor),
    triggering_actor: userJson(core, run.actor),
    referenced_workflows: [],
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${api}/check-suites/${run.id}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${api}/actions/workflows/${run.workflowId}`,
    head_commit: commit
      ? {
          id: commit.sha,
          tree_id: commit.tree,
          message: commit.message,
          timestamp: commit.committerDate,
          author: { name: commit.authorName, email: commit.authorEmail },
          committer: { name: commit.committerName, email: commit.committerEmail },
        }
      : null,
    repository: minimalRepoJson(core, repo),
    head_repository: minimalRepoJson(core, repo),
  };
}
