/**
 * A task run by an ACP agent (`agent.provider: acp`), in process by mode issue in a task world
 * (test/fakes/task-world.ts) with the runner action/run.ts builds (cli-provider-context.ts) and
 * the scripted ACP agent: a pull request delivered with the agent's tool calls in its log; the
 * missing `agent.acp.command` said on the issue; an agent that reports no cost stopped under the
 * cost limit; a cancelled run (the Action's SIGTERM aborts the run's signal, as
 * test/reliability/action-signals.test.ts checks on the bundle) cancels the ACP session and saves
 * the agent's edit. The scripted agent is a TypeScript file of this repository, which the sandbox
 * does not mount, so these runs are unsandboxed; test/lib/sandbox/acp-agent-sandbox.test.ts runs
 * an agent inside it. Which provider a run picks (config or the `provider` input) is the
 * bundle's: test/action/providers.test.ts.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIssueMode } from "../../../../lib/action/modes/issue.ts";
import type { ActionContext } from "../../../../lib/task/context.ts";
import { overallStatus, type ModeResult } from "../../../../lib/task/task-report.ts";
import { startTaskWorld, type TaskWorld } from "../../../fakes/task-world.ts";
import { withCliProvider } from "../../action/modes/cli-provider-context.ts";

const AGENT = join(import.meta.dirname, "fixtures", "scripted-acp-agent.ts");

let w: TaskWorld;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "locus-acp-task-"));
  w = await startTaskWorld();
}, 60_000);

afterAll(async () => {
  await w.close();
  await rm(scratch, { recursive: true, force: true });
});

/** The scripted agent in `script`, logging to `log` in the scratch folder. */
const acpConfig = (script: string, log: string) =>
  `version: 3\nagent:\n  provider: acp\n  acp:\n    command: ${JSON.stringify([process.execPath, AGENT, script, join(scratch, log)])}\n`;

async function queued(title: string) {
  return w.github.createIssue({ title, body: "Greet more warmly.", labels: ["locus:queued"] });
}

/** Mode issue on `issue` with the ACP runner of `configYaml`; `adjust` may change the context first. */
async function runAcp(
  issue: number,
  configYaml: string,
  adjust: (ctx: ActionContext) => ActionContext = (ctx) => ctx,
): Promise<{ result: ModeResult; errors: string[] }> {
  const acp = await withCliProvider(await w.context(), { provider: "acp", configYaml });
  const logStart = w.log.lines.length;
  const result = await runIssueMode(adjust(acp.ctx), [issue]).finally(() => acp.sandbox.close());
  return { result, errors: w.log.lines.slice(logStart).filter((line) => line.startsWith("error:")) };
}

const failureComment = (issue: number) =>
  w.github.store.comments.find(
    (c) => c.issue === issue && c.body.startsWith("**Locus could not finish this task:**"),
  )?.body;

describe("a task run by an ACP agent, in process", { timeout: 60_000 }, () => {
  it("delivers a pull request from an ACP agent, its tool calls in the PR's log", async () => {
    const issue = await queued("Warmer greeting over ACP");

    const { result, errors } = await runAcp(issue.number, acpConfig("work", "acp-log.json"));

    expect(errors).toEqual([]);
    expect(overallStatus(result)).toBe("succeeded");
    expect(await w.show(`locus/issue-${issue.number}`, "src/greet.js")).toContain('"Hello there, "');
    const delivered = result.tasks.find((task) => task.pr)?.pr?.number;
    const pr = await w.github.getPullRequest(Number(delivered));
    // As a reader sees it: Locus puts an invisible word joiner inside every closing keyword it publishes.
    expect(pr?.body.replaceAll("\u2060", "")).toContain("Greeting fixed: it now says hello there.");
    expect(pr?.body).toContain("✓ edit_file src/greet.js");
    expect(w.summary("issue", result)).toContain("Plan: 0/2 done");
    // The Action's `cost-usd` output: the tasks' costs summed, to four places.
    expect(result.tasks.reduce((total, task) => total + task.costUsd, 0).toFixed(4)).toBe("0.2500");
    const log = JSON.parse(await readFile(join(scratch, "acp-log.json"), "utf8")) as Record<string, unknown>;
    expect(String(log["prompt"])).toContain("Warmer greeting over ACP");
    expect(log["output"]).toBe("checked\nsecret=\n");
  });

  it("says on the issue that provider acp needs agent.acp.command", async () => {
    const issue = await queued("Nothing configured");

    const { result } = await runAcp(issue.number, "version: 3\nagent:\n  provider: acp\n");

    expect(overallStatus(result)).toBe("failed");
    const comments = w.github.store.comments.filter((c) => c.issue === issue.number);
    expect(comments.map((comment) => comment.body).join("\n")).toContain(
      "provider acp needs agent.acp.command in .github/locus.yml",
    );
  });

  it("stops an ACP agent that reports no cost under the default cost limit, saves its edit and says how to price it", async () => {
    const issue = await queued("Unmetered over ACP");

    const { result } = await runAcp(issue.number, acpConfig("unreported", "unreported-log.json"));

    expect(overallStatus(result)).toBe("failed");
    expect(await w.show(`locus/wip/issue-${issue.number}`, "src/greet.js")).toContain('"Hello there, "');
    const failure = failureComment(issue.number);
    expect(failure).toContain(
      "it was stopped because its cost could not be counted: the agent reported no cost (ACP usage_update in USD) in its first 3 tool calls, so Locus could not hold it to the cost limit of $5.00.",
    );
    expect(failure).toContain("`agent.acp.costPerToolCallUsd`");
  });

  it("when the run is cancelled, cancels the ACP session, saves the agent's edit on the wip branch and says why", async () => {
    const issue = await queued("Cancelled over ACP");
    const abort = new AbortController();

    // Cancelled once the agent's edit is logged, as the bundle's SIGTERM came once it was printed.
    const { result } = await runAcp(
      issue.number,
      acpConfig("edit-then-cancel", "cancel-log.json"),
      (ctx) => ({
        ...ctx,
        signal: abort.signal,
        log: {
          ...ctx.log,
          info(message) {
            ctx.log.info(message);
            if (message.includes("✓ Edit src/greet.js")) abort.abort(new Error("cancelled (SIGTERM)"));
          },
        },
      }),
    );

    expect(abort.signal.aborted).toBe(true);
    expect(overallStatus(result)).toBe("failed");
    expect(await w.show(`locus/wip/issue-${issue.number}`, "src/greet.js")).toContain('"Hello there, "');
    const log = JSON.parse(await readFile(join(scratch, "cancel-log.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(log["cancelled"]).toBe(true);
    expect(failureComment(issue.number)).toContain("cancelled");
  });
});
