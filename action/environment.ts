/** The standard Actions environment, the only place endpoints and paths come from (docs/contracts.md "Action"). */
import { z } from "zod";

const environmentSchema = z.object({
  GITHUB_REPOSITORY: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "expected owner/name"),
  GITHUB_WORKSPACE: z.string().min(1),
  GITHUB_API_URL: z.url().default("https://api.github.com"),
  GITHUB_SERVER_URL: z.url().default("https://github.com"),
  GITHUB_RUN_ID: z.string().default(""),
  RUNNER_TEMP: z.string().optional(),
  GITHUB_ACTOR: z.string().default(""),
  GITHUB_TRIGGERING_ACTOR: z.string().optional(),
  GITHUB_EVENT_NAME: z.string().default(""),
});

export interface ActionEnvironment {
  readonly owner: string;
  readonly repo: string;
  readonly workspace: string;
  readonly apiUrl: string;
  readonly runId: string;
  readonly runUrl?: string;
  readonly worktreeRoot: string;
  readonly actor: string;
  /**
   * The run began as a `workflow_dispatch` (by hand, through the API, or a re-run of one): GitHub let
   * the actor start it only with write access to the repository
   * (https://docs.github.com/en/actions/managing-workflow-runs-and-deployments/managing-workflow-runs/manually-running-a-workflow).
   */
  readonly dispatched: boolean;
  readonly repositoryUrl: string;
}

export function readEnvironment(env: Readonly<Record<string, string | undefined>>): ActionEnvironment {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`The Actions environment is incomplete: ${problems.join("; ")}`);
  }
  const e = parsed.data;
  const [owner = "", repo = ""] = e.GITHUB_REPOSITORY.split("/");
  const server = e.GITHUB_SERVER_URL.replace(/\/+$/, "");
  return {
    owner,
    repo,
    workspace: e.GITHUB_WORKSPACE,
    apiUrl: e.GITHUB_API_URL,
    runId: e.GITHUB_RUN_ID,
    ...(e.GITHUB_RUN_ID ? { runUrl: `${server}/${owner}/${repo}/actions/runs/${e.GITHUB_RUN_ID}` } : {}),
    worktreeRoot: e.RUNNER_TEMP ?? `${e.GITHUB_WORKSPACE}/.locus/worktrees`,
    actor: e.GITHUB_TRIGGERING_ACTOR || e.GITHUB_ACTOR,
    dispatched: e.GITHUB_EVENT_NAME === "workflow_dispatch",
    repositoryUrl: `${server}/${owner}/${repo}`,
  };
}
