/**
 * The runner of the README tests: it runs the bundled Action with what the repository's own
 * caller workflow, variables and secrets give it, as GitHub would, and trades the simulator's OIDC
 * tokens with the app for the run's tokens.
 */
import { join } from "node:path";
import { readPath } from "../../sandbox/github-sim/git.ts";
import type { GitHubSimulator } from "../../sandbox/github-sim/index.ts";
import { createActionRunner, type ActionRunner } from "../../sandbox/world/action-runner.ts";
import { calledWorkflows } from "../../sandbox/world/caller-workflow.ts";
import { locusStepInputs, type RepositoryActionsSettings } from "../../sandbox/world/workflow-inputs.ts";
import { actionBundle } from "../action-bundle.ts";

export async function readmeActionRunner(options: {
  readonly sim: GitHubSimulator;
  readonly workDir: string;
  /** The model's address; its key is the repository's secret, passed by the workflows. */
  readonly modelUrl: string;
  /** The Action's repository, as the caller workflow names it. */
  readonly action: string;
  readonly settings: RepositoryActionsSettings;
}): Promise<ActionRunner> {
  const { sim } = options;
  return createActionRunner({
    bundle: await actionBundle(),
    workDir: join(options.workDir, "runs"),
    apiUrl: sim.apiUrl,
    graphqlUrl: sim.graphqlUrl,
    serverUrl: sim.url,
    model: { baseUrl: options.modelUrl, apiKey: "" },
    exchange: { appUrl: () => "", idTokenRequest: (runId) => sim.oidc.requestCredentials(runId) },
    stepInputs: async (run) => {
      const file = await readPath(run.gitDir, run.headSha, run.workflowPath);
      return locusStepInputs({
        caller: file?.type === "file" ? file.content.toString("utf8") : "",
        called: calledWorkflows(),
        action: options.action,
        dispatchInputs: run.inputs,
        settings: options.settings,
        githubToken: run.githubToken,
      });
    },
  });
}
