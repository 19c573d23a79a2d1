/** GitHub-shaped JSON for workflow jobs, check suites, check runs and annotations. */
import type { CheckRun, CheckSuite, CiAnnotation, CiApp } from "./ci-model.ts";
import type { SimCore } from "./core.ts";
import { branchSha, commitInfo } from "./git.ts";
import type { Repo } from "./model.ts";
import { minimalRepoJson } from "./serialize-repo.ts";
import { nodeId, userJson } from "./serialize-user.ts";

function repoApi(core: SimCore, repo: Repo): string {
  return `${core.urls.api}/repos/${repo.owner}/${repo.name}`;
}

function repoWeb(core: SimCore, repo: Repo): string {
  return `${core.urls.web}/${repo.owner}/${repo.name}`;
}

export function ciAppJson(core: SimCore, app: CiApp): Record<string, unknown> {
  return {
    id: app.id,
    slug: app.slug,
    node_id: nodeId("A", app.id),
    owner: userJson(core, app.owner),
    name: app.name,
    description: "",
    external_url: `${core.urls.web}/apps/${app.slug}`,
    html_url: `${core.urls.web}/apps/${app.slug}`,
    created_at: "2018-07-30T09:30:17Z",
    updated_at: "2018-07-30T09:30:17Z",
    permissions: { checks: "write", metadata: "read" },
    events: ["check_run", "check_suite"],
  };
}

// The open pull requests whose head is this commit on this branch (what GitHub lists with a check).
export async function pullsAt(
  core: SimCore,
  repo: Repo,
  headBranch: string,
  headSha: string,
): Promise<Array<Record<string, unknown>>> {
  const pulls = [...repo.issues.values()].filter(
    (issue) => issue.pull && issue.state === "open" && issue.pull.head === headBranch,
  );
  const result: Array<Record<string, unknown>> = [];
  for (const issue of pulls) {
    if (!issue.pull || (await branchSha(repo.gitDir, issue.pull.head)) !== headSha) continue;
    const ref = { id: repo.id, url: repoApi(core, repo), name: repo.name };
    result.push({
      id: issue.id,
      number: issue.number,
      url: `${repoApi(core, repo)}/pulls/${issue.number}`,
      head: { ref: issue.pull.head, sha: headSha, repo: ref },
      base: { ref: issue.pull.base, sha: (await branchSha(repo.gitDir, issue.pull.base)) ?? "", repo: ref },
    });
  }
  return result;
}

export function jobJson(core: SimCore, repo: Repo, run: CheckRun): Record<string, unknown> {
  const job = run.job;
  if (!job) throw new Error(`check run ${run.id} is not a workflow job`);
  return {
    id: run.id,
    run_id: job.runId,
    workflow_name: job.workflowName,
    head_branch: job.headBranch,
    run_url: `${repoApi(core, repo)}/actions/runs/${job.runId}`,
    run_attempt: 1,
    node_id: nodeId("CR", run.id),
    head_sha: run.headSha,
    url: `${repoApi(core, repo)}/actions/jobs/${run.id}`,
    html_url: `${repoWeb(core, repo)}/actions/runs/${job.runId}/job/${run.id}`,
    status: "completed",
    conclusion: run.conclusion,
    created_at: run.startedAt,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    name: run.name,
    steps: job.steps.map((step) => ({
      name: step.name,
      status: "completed",
      conclusion: step.conclusion,
      number: step.number,
      started_at: run.startedAt,
      completed_at: run.completedAt,
    })),
    check_run_url: `${repoApi(core, repo)}/check-runs/${run.id}`,
    labels: ["ubuntu-latest"],
    runner_id: 1,
    runner_name: "GitHub Actions 1",
    runner_group_id: 1,
    runner_group_name: "GitHub Actions",
  };
}

export async function checkSuiteJson(
  core: SimCore,
  repo: Repo,
  suite: CheckSuite,
  runCount: number,
): Promise<Record<string, unknown>> {
  const commit = await commitInfo(repo.gitDir, suite.headSha);
  return {
    id: suite.id,
    node_id: nodeId("CS", suite.id),
    head_branch: suite.headBranch,
    head_sha: suite.headSha,
    status: "completed",
    conclusion: suite.conclusion,
    url: `${repoApi(core, repo)}/check-suites/${suite.id}`,
    before: null,
    after: suite.headSha,
    pull_requests: await pullsAt(core, repo, suite.headBranch, suite.headSha),
    app: ciAppJson(core, suite.app),
    repository: minimalRepoJson(core, repo),
    created_at: suite.createdAt,
    updated_at: suite.updatedAt,
    head_commit: {
      id: suite.headSha,
      tree_id: commit?.tree ?? "",
      message: commit?.message ?? "",
      timestamp: commit?.committerDate ?? suite.createdAt,
      author: commit ? { name: commit.authorName, email: commit.authorEmail } : null,
      committer: commit ? { name: commit.committerName, email: commit.committerEmail } : null,
    },
    latest_check_runs_count: runCount,
    check_runs_url: `${repoApi(core, repo)}/check-suites/${suite.id}/check-runs`,
    rerequestable: true,
    runs_rerequestable: true,
  };
}

export async function checkRunJson(
  core: SimCore,
  repo: Repo,
  run: CheckRun,
  suite: CheckSuite,
): Promise<Record<string, unknown>> {
  const url = `${repoApi(core, repo)}/check-runs/${run.id}`;
  const html = run.job
    ? `${repoWeb(core, repo)}/actions/runs/${run.job.runId}/job/${run.id}`
    : `${repoWeb(core, repo)}/runs/${run.id}`;
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: nodeId("CR", run.id),
    external_id: String(run.id),
    url,
    html_url: html,
    details_url: html,
    status: "completed",
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      ...run.output,
      annotations_count: run.annotations.length,
      annotations_url: `${url}/annotations`,
    },
    name: run.name,
    check_suite: { id: suite.id },
    app: ciAppJson(core, suite.app),
    pull_requests: await pullsAt(core, repo, suite.headBranch, suite.headSha),
  };
}

export function annotationJson(core: SimCore, repo: Repo, run: CheckRun, annotation: CiAnnotation) {
  return {
    path: annotation.path,
    blob_href: `${repoWeb(core, repo)}/blob/${run.headSha}/${annotation.path}`,
    start_line: annotation.startLine,
    end_line: annotation.endLine,
    start_column: null,
    end_column: null,
    annotation_level: annotation.level,
    title: annotation.title,
    message: annotation.message,
    raw_details: null,
  };
}
