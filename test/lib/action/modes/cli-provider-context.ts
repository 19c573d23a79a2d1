/**
 * A task world's run context (test/fakes/task-world.ts) with a CLI provider
 * for its agent, as action/run.ts builds one when the `provider` input names
 * it: the runner from `createAgentRunner`, the run's config from its own
 * YAML, and the fake CLI (test/lib/agent/runners/fake-cli.ts) first on PATH.
 * The fake CLI and the scripted ACP agent record what they saw into their own
 * directories, which the sandbox mounts read-only, so the agent runs
 * unsandboxed here;
 * test/lib/sandbox/cli-runner-sandbox.test.ts runs a CLI inside the sandbox.
 */
import { createAgentRunner } from "../../../../action/create-agent-runner.ts";
import type { Provider } from "../../../../lib/agent/runner.ts";
import { createRunSandbox } from "../../../../lib/agent/run-sandbox.ts";
import { loadConfig } from "../../../../lib/config/index.ts";
import type { Sandbox } from "../../../../lib/sandbox/sandbox.ts";
import type { ActionContext } from "../../../../lib/task/context.ts";
import type { FakeCli } from "../../agent/runners/fake-cli.ts";

export interface CliProviderRun {
  readonly provider: Provider;
  /** The fake CLI, first on PATH; an ACP agent named by its config's command needs none. */
  readonly cli?: FakeCli;
  /** The run's `.github/locus.yml`; its sandbox is turned off. */
  readonly configYaml: string;
  readonly model?: string;
  /** More of the runner's environment (a provider's key). */
  readonly env?: Readonly<Record<string, string>>;
}

/** `ctx` with the CLI's runner; close the answered sandbox after the run. */
export async function withCliProvider(
  ctx: ActionContext,
  run: CliProviderRun,
): Promise<{ ctx: ActionContext; sandbox: Sandbox }> {
  const loaded = loadConfig(`${run.configYaml}sandbox:\n  mode: off\n`);
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("; "));
  const config = loaded.config;
  const env = {
    PATH: run.cli?.path ?? process.env["PATH"] ?? "",
    HOME: run.cli?.dir ?? ctx.run.worktreeRoot,
    ...run.env,
  };
  const sandbox = await createRunSandbox({
    mode: "off",
    allow: undefined,
    workspace: ctx.run.worktreeRoot,
    provider: run.provider,
    env,
  });
  return {
    ctx: {
      ...ctx,
      config,
      model: run.model ?? config.agent.model,
      runner: createAgentRunner(run.provider, config, env, "", sandbox),
      run: { ...ctx.run, unsandboxed: true },
    },
    sandbox,
  };
}
