/**
 * Mode fix-ci through the bundled Action, the simulator and the Anthropic
 * fake, for what needs the process and the real API: on a private repository
 * a fix needs no more than the exchange's phase tokens hold (`checks: read`,
 * `actions: read`), and the simulator records no call GitHub would refuse;
 * with provider acp the agent is a process of its own. Both fix a Locus PR
 * whose `node --test` CI run failed, and the next run is green. The mode's
 * other scenarios (the fix commit, its comment and the prompt's log tail and
 * annotations; an unrelated failure, an older head, a refused PR, scratch
 * files, saved work on wip) run in process: test/lib/action/modes/fix-ci-mode.test.ts.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phasePermissions } from "../../lib/token-exchange/phases.ts";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { mintInstallationToken } from "../../sandbox/github-sim/app-auth.ts";
import { nodeTestCi } from "../../sandbox/world/node-test-ci.ts";
import { OWNER, REPO, startHarness, type Harness } from "./harness.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import { NODE_TEST_PROJECT_FILES } from "../project-files.ts";
import { NODE_WITH_COMPILE_CACHE } from "../node-with-compile-cache.ts";

const FILES = NODE_TEST_PROJECT_FILES;

const AGENT = join(import.meta.dirname, "..", "lib", "agent", "runners", "fixtures", "scripted-acp-agent.ts");

let h: Harness;
let agentDir: string;
const ci = nodeTestCi();

async function locusPullRequest(title: string): Promise<{ issue: number; pr: number; branch: string }> {
  const created = await h.api.createIssue({ title, labels: ["locus:queued"] });
  h.fake.setScript([
    reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
    reply(call("finish", { summary: "Greeting now says Hi." })),
  ]);
  const run = await h.run({ mode: "issue", issue: String(created.number) });
  return {
    issue: created.number,
    pr: Number(run.outputs["pr-number"]),
    branch: `locus/issue-${created.number}`,
  };
}

async function runCi(branch: string) {
  const headSha = (await h.git(["rev-parse", `origin/${branch}`])).trim();
  const jobs = await ci({
    owner: OWNER,
    repo: REPO,
    gitDir: h.repo.gitDir,
    headBranch: branch,
    headSha,
  });
  return h.sim.ci.run(h.repo.repo, { headBranch: branch, headSha, jobs });
}

beforeAll(async () => {
  // The README's caller workflow: the test dispatches fix-ci runs as the app does.
  agentDir = await mkdtemp(join(tmpdir(), "locus-fix-ci-acp-"));
  // With the compile cache, the agent's start reuses what its last start compiled.
  const command = JSON.stringify([...NODE_WITH_COMPILE_CACHE, AGENT, "fix-test", join(agentDir, "log.json")]);
  h = await startHarness({
    ...FILES,
    ...callerWorkflowFiles(),
    // The scripted agent is a file of this repository, which the ACP agent's sandbox does not mount, and
    // writes its log outside the worktree: the agent inside the sandbox is tested in test/lib/sandbox.
    ".github/locus-acp.yml": `version: 3\nagent:\n  provider: acp\n  acp:\n    command: ${command}\nsandbox:\n  mode: off\n`,
  });
}, 90_000);

afterAll(async () => {
  await h.close();
  await rm(agentDir, { recursive: true, force: true });
});

describe("mode fix-ci", () => {
  it("fixes CI on a private repository with no more than the exchange's phase tokens may do", async () => {
    const { pr, branch } = await locusPullRequest("Greet informally, privately");
    const failed = await runCi(branch);
    h.fake.setScript([
      reply(
        call("edit_file", { path: "test/greet.test.js", old_text: '"Hello, Ada"', new_text: '"Hi, Ada"' }),
      ),
      reply(call("finish", { summary: "The test now expects Hi." })),
    ]);
    // GitHub asks `checks: read` for check runs, annotations and suites; on a private repository nothing
    // else lets a token read them. The publish phase's permissions include the agent phase's.
    const installation = [...h.sim.store.installations.values()][0];
    if (!installation) throw new Error("the harness installed no app");
    const phaseToken = mintInstallationToken(h.sim.store, installation.id, {
      metadata: "read",
      ...phasePermissions("publish"),
    }).token;
    h.repo.repo.isPrivate = true;
    const violationsBefore = h.sim.store.permissionViolations.length;
    try {
      await h.api.dispatchWorkflow("locus.yml", "main", { mode: "fix-ci", pr: String(pr) });
      const [created] = await h.api.listWorkflowRuns("locus.yml");
      const run = await h.run(
        { mode: "fix-ci", pr: String(pr), command: `run ${failed.id}`, "github-token": phaseToken },
        { GITHUB_RUN_ID: String(created?.id) },
      );

      expect(run.code).toBe(0);
      expect(h.sim.store.permissionViolations.slice(violationsBefore)).toEqual([]);
      expect(run.outputs["status"]).toBe("succeeded");
      expect((await runCi(branch)).conclusion).toBe("success");
    } finally {
      h.repo.repo.isPrivate = false;
    }
  }, 120_000);

  it("fixes CI with provider acp, whose agent is not handed the unrelated-failure report as its answer", async () => {
    const { pr, branch } = await locusPullRequest("Greet informally over ACP");
    const failed = await runCi(branch);
    expect(failed.conclusion).toBe("failure");
    await h.api.dispatchWorkflow("locus.yml", "main", { mode: "fix-ci", pr: String(pr) });
    const [created] = await h.api.listWorkflowRuns("locus.yml");

    const run = await h.run(
      { mode: "fix-ci", pr: String(pr), command: `run ${failed.id}`, "config-path": ".github/locus-acp.yml" },
      { GITHUB_RUN_ID: String(created?.id) },
    );

    expect(run.stderr).toBe("");
    expect(run.outputs["status"]).toBe("succeeded");
    const prompt = String(
      (JSON.parse(await readFile(join(agentDir, "log.json"), "utf8")) as Record<string, unknown>)["prompt"],
    );
    expect(prompt).toContain("change nothing and say so, with the evidence, in your final message");
    expect(prompt).not.toContain("report_unrelated_failure");
    expect((await h.api.listIssueComments(pr)).at(-1)?.body).toContain("it now expects Hi");
    expect((await runCi(branch)).conclusion).toBe("success");
  }, 120_000);
});
