/**
 * Setup before the agent, run in process by mode issue in a task world (test/fakes/task-world.ts):
 * the repository's `setup.commands` run in the task's worktree (inside a sandbox of their own
 * where the machine has one) before the first model call; the agent starts from what they left
 * and is told what ran; a failing command fails the task with the command and the end of its
 * output, and no model is asked. The setup is built as action/run.ts builds it. Setup through a
 * private registry's credential (an input of the Action, kept out of its log) stays with the
 * bundle: test/action/setup-before-agent.test.ts.
 */
import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIssueMode } from "../../../lib/action/modes/issue.ts";
import { createRunSandbox } from "../../../lib/agent/run-sandbox.ts";
import { loadConfig, type LocusConfig } from "../../../lib/config/index.ts";
import { defaultAllowedHosts } from "../../../lib/sandbox/host-patterns.ts";
import { scrubEnvironment } from "../../../lib/sandbox/environment.ts";
import { planSetup } from "../../../lib/setup/setup-plan.ts";
import { createTaskSetup } from "../../../lib/setup/task-setup.ts";
import type { ActionContext } from "../../../lib/task/context.ts";
import { overallStatus } from "../../../lib/task/task-report.ts";
import { call, reply } from "../../../sandbox/anthropic-fake/script.ts";
import { startTaskWorld, type TaskWorld } from "../../fakes/task-world.ts";
import { configForThisMachine } from "../../needs-bubblewrap.ts";
import { PROJECT_FILES } from "../../project-files.ts";

let w: TaskWorld;

const SETUP = [
  "mkdir -p node_modules/made-by-setup",
  "printf 'module.exports = \"ready\";\\n' > node_modules/made-by-setup/index.js",
];

function configOf(text: string): LocusConfig {
  const loaded = loadConfig(configForThisMachine(text));
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("; "));
  return loaded.config;
}

beforeAll(async () => {
  const setupConfig = [
    "version: 3",
    "setup:",
    "  commands:",
    ...SETUP.map((command) => `    - ${JSON.stringify(command)}`),
    "",
  ].join("\n");
  w = await startTaskWorld({
    files: { ...PROJECT_FILES, ".github/locus.yml": configForThisMachine(setupConfig) },
  });
}, 60_000);

afterAll(async () => {
  await w.close();
});

/** The run's context with its setup built as action/run.ts builds it, from `config` (the checkout's unless said). */
async function withSetup(config?: LocusConfig): Promise<ActionContext> {
  const ctx = await w.context();
  const run = config ?? ctx.config;
  // The world's checkout sits beside its worktree root (test/fakes/task-world.ts).
  const workspace = join(dirname(ctx.run.worktreeRoot), "workspace");
  const topLevel = await readdir(workspace);
  const env = scrubEnvironment({ PATH: process.env["PATH"], HOME: ctx.run.worktreeRoot });
  const setup = createTaskSetup({
    plan: planSetup(run.setup, topLevel),
    openSandbox: (extraAllow) =>
      createRunSandbox({
        mode: run.sandbox.mode,
        allow: [...(run.sandbox.network.allow ?? defaultAllowedHosts(topLevel)), ...extraAllow],
        workspace,
        provider: "builtin",
        env,
      }),
    env,
  });
  return { ...ctx, config: run, setup };
}

describe("setup before the agent, in process", { timeout: 60_000 }, () => {
  it("runs in the worktree before the first model call, and the agent starts from its result and is told", async () => {
    const issue = await w.github.createIssue({
      title: "Use the helper setup made",
      labels: ["locus:queued"],
    });
    const before = w.anthropic.requests.length;
    w.anthropic.setScript([
      reply(call("run_shell", { command: "node -e 'console.log(require(\"made-by-setup\"))'" })),
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
      reply(call("finish", { summary: "Greeting now says Hi." })),
    ]);

    const result = await runIssueMode(await withSetup(), [issue.number]);

    expect(overallStatus(result)).toBe("succeeded");
    const first = JSON.stringify(w.anthropic.requests[before]);
    expect(first).toContain("Setup already run");
    expect(first).toContain("mkdir -p node_modules/made-by-setup");
    // The agent's first command found what setup installed.
    expect(JSON.stringify(w.anthropic.requests[before + 1])).toContain("ready");
    // What setup left is the agent's starting point, not part of the pull request.
    const files = await w.git(["ls-tree", "-r", "--name-only", `origin/locus/issue-${issue.number}`]);
    expect(files).not.toContain("node_modules");
  });

  it("fails the task with the command and the end of its output, before any model call", async () => {
    const issue = await w.github.createIssue({ title: "Setup breaks", labels: ["locus:queued"] });
    const before = w.anthropic.requests.length;
    const failing = configOf(
      'version: 3\nsetup:\n  commands:\n    - "echo boom from setup; exit 3"\n    - "echo never runs"\n',
    );

    const result = await runIssueMode(await withSetup(failing), [issue.number]);

    expect(overallStatus(result)).toBe("failed");
    expect(w.anthropic.requests.length).toBe(before);
    expect(w.github.labelsOf(issue.number)).toContain("locus:failed");
    const said = w.github.store.comments
      .filter((c) => c.issue === issue.number)
      .map((c) => c.body)
      .join("\n");
    expect(said).toContain(
      "**Setup failed** before the agent started: `echo boom from setup; exit 3` exited with 3.",
    );
    expect(said).toContain("boom from setup");
    expect(said).not.toContain("never runs");
  });
});
