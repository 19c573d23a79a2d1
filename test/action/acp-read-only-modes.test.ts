/**
 * The read-only modes with provider `acp`, through the bundled Action and the scripted ACP agent:
 * `ask` posts the agent's last message as the answer, with its citations linked; `plan` and `review`
 * take the plan and the review from the agent's final JSON.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPlanComment } from "../../lib/plan/plan-comment.ts";
import { OWNER, PROJECT_FILES, REPO, startHarness, type Harness } from "./harness.ts";

const AGENT = join(import.meta.dirname, "..", "lib", "agent", "runners", "fixtures", "scripted-acp-agent.ts");

let h: Harness;

function acpConfig(scenario: string): string {
  const command = JSON.stringify([process.execPath, AGENT, scenario, join(h.dir, `${scenario}-log.json`)]);
  // The scripted agent is a file of this repository, which the ACP agent's sandbox does not mount, and
  // writes its log outside the worktree: the agent inside the sandbox is tested in test/lib/sandbox.
  return `version: 3\nagent:\n  provider: acp\n  acp:\n    command: ${command}\nsandbox:\n  mode: off\n`;
}

beforeAll(async () => {
  h = await startHarness(PROJECT_FILES);
  h.repo.collaborator("dana", "write");
  await h.git(["checkout", "--quiet", "-B", "configs", "origin/main"]);
  await writeFile(join(h.scratch, "acp-explain.yml"), acpConfig("explain"));
  await writeFile(join(h.scratch, "acp-review.yml"), acpConfig("review"));
  await writeFile(join(h.scratch, "acp-plan.yml"), acpConfig("plan"));
  await h.git(["add", "acp-explain.yml", "acp-review.yml", "acp-plan.yml"]);
  await h.git(["commit", "--quiet", "-m", "config: the scripted ACP agent"]);
  await h.git(["push", "--quiet", "origin", "configs:main"]);
}, 60_000);

afterAll(async () => {
  await h.close();
});

describe("read-only modes with provider acp", () => {
  it("answers a question with the ACP agent's last message, its citations linked", async () => {
    const issue = await h.api.createIssue({ title: "Where is the greeting?", body: "" });
    await h.as("dana").createComment(issue.number, "/locus ask Where is the greeting built?");
    const sha = (await h.git(["rev-parse", "origin/main"])).trim();

    const run = await h.run({
      mode: "ask",
      issue: String(issue.number),
      command: "Where is the greeting built?",
      "config-path": "acp-explain.yml",
    });

    expect(run.stderr).toBe("");
    expect(run.outputs["status"]).toBe("succeeded");
    const answer = (await h.api.getIssue(issue.number))?.comments.find((c) =>
      c.body.startsWith("<!-- locus:answer "),
    );
    expect(answer?.body).toContain(
      `The greeting is built in [\`src/greet.js:2\`](${h.sim.url}/${OWNER}/${REPO}/blob/${sha}/src/greet.js#L2), inside \`greet\`.`,
    );
  });

  it("posts the plan from the ACP agent's final JSON", async () => {
    const issue = await h.api.createIssue({ title: "Say goodbye too", body: "We never say goodbye." });

    const run = await h.run({
      mode: "plan",
      issue: String(issue.number),
      command: "Add farewells",
      "config-path": "acp-plan.yml",
    });

    expect(run.stderr).toBe("");
    expect(run.outputs["status"]).toBe("succeeded");
    const plans = ((await h.api.getIssue(issue.number))?.comments ?? []).flatMap((comment) => {
      const read = readPlanComment(comment.body);
      return read.ok ? [read.plan] : [];
    });
    expect(plans.map((plan) => [plan.sprint, plan.tasks.map((task) => task.title)])).toEqual([
      ["Farewells", ["Add a farewell function"]],
    ]);
  });

  it("reviews a pull request with the ACP agent's final JSON", async () => {
    await h.git(["checkout", "--quiet", "-B", "feature/comma", "origin/main"]);
    await writeFile(
      join(h.scratch, "src/greet.js"),
      'export function greet(name) {\n  return "Hello " + name;\n}\n',
    );
    await h.git(["commit", "--quiet", "-am", "drop the comma"]);
    await h.git(["push", "--quiet", "origin", "feature/comma"]);
    const pr = await h.as("dana").createPullRequest({
      title: "Drop the comma",
      body: "",
      head: "feature/comma",
      base: "main",
    });

    const run = await h.run({ mode: "review", pr: String(pr.number), "config-path": "acp-review.yml" });

    expect(run.stderr).toBe("");
    expect(run.outputs["status"]).toBe("succeeded");
    const reviews = await h.api.listReviews(pr.number);
    expect(
      reviews.map((review) => [review.state, review.body.includes("The greeting lost its comma.")]),
    ).toEqual([["CHANGES_REQUESTED", true]]);
    const comments = await h.api.listReviewComments(pr.number);
    expect(comments.map((c) => [c.path, c.line, c.body.includes("Keep the comma after Hello.")])).toEqual([
      ["src/greet.js", 2, true],
    ]);
  });
});
