/**
 * The session record through the bundled Action, uploaded to the simulator's artifact service:
 * the delivered task's part is linked from the PR body and the status comment, and the link
 * downloads a file that holds none of the run's secrets and replays its tool calls in order; a
 * refused upload is said once and the PR still opens. A run without an artifact service, which
 * needs none of this, runs in process: test/lib/session-record/record-without-artifact-service.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { parseRecord, recordEvents } from "../../lib/session-record/record-summary.ts";
import { STATUS_MARKER } from "../../lib/status/status-comment.ts";
import { runtimeToken } from "../../sandbox/github-sim/artifact-service.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import { ANTHROPIC_KEY, OWNER, PROJECT_FILES, REPO, startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ ...PROJECT_FILES, ...callerWorkflowFiles() });
  h.repo.collaborator("rev", "write");
}, 60_000);

afterAll(async () => {
  h.sim.artifacts.refuse(undefined);
  await h.close();
});

// GitHub's artifact client works only against github.com, *.ghe.com and *.localhost hosts (GHES
// has no artifact service of this version), so these runs name the simulator as a .localhost host;
// this machine does not resolve that name, so the test maps links back to the simulator's address.
const SERVER = () => h.sim.url.replace("127.0.0.1", "locus-sim.localhost");

function artifactEnv(runId: string): Record<string, string> {
  return {
    GITHUB_SERVER_URL: SERVER(),
    GITHUB_RUN_ID: runId,
    ACTIONS_RESULTS_URL: h.sim.url,
    ACTIONS_RUNTIME_TOKEN: runtimeToken(runId),
  };
}

function onSimulator(url: string): string {
  return url.replace("locus-sim.localhost", "127.0.0.1");
}

async function queuedIssue(title: string) {
  return h.api.createIssue({ title, body: "Say Hi instead of Hello.", labels: ["locus:queued"] });
}

// The agent writes the run's secrets where the record would keep them: a tool's parameters.
function leakyScript(secrets: readonly string[]) {
  return [
    reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
    reply(call("write_file", { path: "notes.txt", content: `keys: ${secrets.join(" ")}\n` })),
    reply(call("finish", { summary: "Greeting now says Hi." })),
  ];
}

async function statusCommentOf(issue: number): Promise<string> {
  const comments = (await h.api.getIssue(issue))?.comments ?? [];
  return comments.find((c) => c.body.startsWith(`<!-- ${STATUS_MARKER} -->`))?.body ?? "";
}

describe("session record", () => {
  let delivered: { issue: number; pr: number } | undefined;

  it("is the task's artifact, linked from the PR, the status comment and the job summary, without secrets, replaying the tool calls in order", async () => {
    const issue = await queuedIssue("Greet politely");
    const runId = "7101";
    h.fake.setScript(leakyScript([ANTHROPIC_KEY, h.token, runtimeToken(runId)]));

    const run = await h.run({ mode: "issue", issue: String(issue.number) }, artifactEnv(runId));

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("succeeded");
    const name = `locus-session-${runId}-issue-${issue.number}`;
    const artifacts = h.sim.artifacts.list();
    expect(artifacts.map((a) => [a.runId, a.name])).toEqual([[runId, `${name}.jsonl`]]);
    const [artifact] = artifacts;
    const link = `${SERVER()}/${OWNER}/${REPO}/actions/runs/${runId}/artifacts/${artifact?.id}`;
    const pr = await h.api.getPullRequest(Number(run.outputs["pr-number"]));
    delivered = { issue: issue.number, pr: Number(run.outputs["pr-number"]) };
    expect(pr?.body).toContain(`[session record](${link})`);
    expect(await statusCommentOf(issue.number)).toContain(`[session record](${link})`);
    expect(run.summary).toContain("### Session record");
    expect(run.summary).toContain(`[artifact ${artifact?.id}](${link})`);

    // The link resolves to the file itself.
    const downloaded = await (await fetch(onSimulator(link))).text();
    expect(downloaded).toBe(artifact?.content.toString("utf8"));
    for (const secret of [ANTHROPIC_KEY, h.token, runtimeToken(runId)])
      expect(downloaded).not.toContain(secret);
    const lines = parseRecord(downloaded);
    expect(lines[0]?.kind).toBe("prompts");
    expect(lines.map((line) => line.seq)).toEqual(lines.map((_, index) => index));
    const started = recordEvents(lines).flatMap((event) =>
      event.type === "tool_started" ? [event.tool] : [],
    );
    expect(started).toEqual(["edit_file", "write_file", "finish"]);
  }, 120_000);

  it("an iterate round's part is linked from the round's comment on the PR", async () => {
    if (!delivered) throw new Error("the first test delivered no PR");
    const { pr } = delivered;
    h.fake.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hi, ", new_text: "Hi there, " })),
      reply(call("finish", { summary: "Warmer greeting." })),
    ]);
    await h.as("rev").createComment(pr, "/locus iterate warmer");
    await h.api.dispatchWorkflow("locus.yml", "main", { mode: "iterate", pr: String(pr) });
    const [created] = await h.api.listWorkflowRuns("locus.yml");
    const runId = String(created?.id);

    const run = await h.run({ mode: "iterate", pr: String(pr), command: "warmer" }, artifactEnv(runId));

    expect(run.outputs["status"]).toBe("succeeded");
    const artifact = h.sim.artifacts.list().find((a) => a.runId === runId);
    expect(artifact?.name).toBe(`locus-session-${runId}-pr-${pr}.jsonl`);
    const link = `${SERVER()}/${OWNER}/${REPO}/actions/runs/${runId}/artifacts/${artifact?.id}`;
    const comments = (await h.api.getIssue(pr))?.comments ?? [];
    const round = comments.find((c) => c.body.includes("Locus addressed the review feedback"));
    expect(round?.body).toContain(`[session record](${link})`);
    const started = recordEvents(parseRecord(artifact?.content.toString("utf8") ?? "")).flatMap((event) =>
      event.type === "tool_started" ? [event.tool] : [],
    );
    expect(started).toEqual(["edit_file", "finish"]);
  }, 120_000);

  it("a refused upload is said once, plainly, and the task still opens its PR, unlinked", async () => {
    const issue = await queuedIssue("Greet again");
    h.fake.setScript(leakyScript([]));
    h.sim.artifacts.refuse("artifact storage quota has been hit");

    const run = await h.run({ mode: "issue", issue: String(issue.number) }, artifactEnv("7102"));
    h.sim.artifacts.refuse(undefined);

    expect(run.code).toBe(0);
    expect(run.outputs["status"]).toBe("succeeded");
    const pr = await h.api.getPullRequest(Number(run.outputs["pr-number"]));
    expect(pr?.head.ref).toBe(`locus/issue-${issue.number}`);
    expect(pr?.body).not.toContain("session record");
    expect(run.summary.match(/Not uploaded/g)).toHaveLength(1);
    expect(run.summary).toContain("artifact storage quota has been hit");
  }, 120_000);
});
