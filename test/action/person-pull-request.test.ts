/**
 * `/locus iterate` on a pull request a person opened (`pr.humanPrs`), through the bundled Action
 * on the simulator: one commit on top of theirs with a `Co-authored-by` trailer for whoever asked,
 * their commits untouched, no task issue's labels; a branch the person moved meanwhile left as
 * they made it, the work kept on a wip branch; and without the setting, one reply naming it.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";
import { configForThisMachine } from "../needs-bubblewrap.ts";
import { findUser } from "../../sandbox/github-sim/store.ts";

const HUMAN_PRS = ".github/human-prs.yml";
let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    ...PROJECT_FILES,
    ...callerWorkflowFiles(),
    [HUMAN_PRS]: configForThisMachine("version: 3\npr:\n  humanPrs: true\n"),
  });
  h.repo.collaborator("dana", "write");
  h.repo.collaborator("rev", "write");
}, 90_000);

afterAll(async () => {
  await h.close();
});

/** Dana's own PR: one commit of hers on `branch`, opened by her. */
async function danasPullRequest(branch: string): Promise<{ pr: number; sha: string }> {
  await h.git(["checkout", "--quiet", "-B", branch, "origin/main"]);
  await writeFile(
    join(h.scratch, "src/greet.js"),
    'export function greet(name) {\n  return "Hey, " + name;\n}\n',
  );
  await h.git([
    "-c",
    "user.name=Dana",
    "-c",
    "user.email=dana@example.com",
    "commit",
    "--quiet",
    "-am",
    "Say hey",
  ]);
  await h.git(["push", "--quiet", "origin", `${branch}:refs/heads/${branch}`]);
  const sha = (await h.git(["rev-parse", "HEAD"])).trim();
  const opened = await h
    .as("dana")
    .createPullRequest({ title: "Say hey", body: "", head: branch, base: "main" });
  return { pr: opened.number, sha };
}

/** As the app dispatches it on rev's `/locus iterate`, then the Action as that run. */
async function iterate(pr: number, inputs: Record<string, string> = {}) {
  await h.as("rev").createComment(pr, "/locus iterate use a template string");
  await h.api.dispatchWorkflow("locus.yml", "main", { mode: "iterate", pr: String(pr) });
  const [created] = await h.api.listWorkflowRuns("locus.yml");
  const firstRequest = h.fake.requests.length;
  const run = await h.run(
    { mode: "iterate", pr: String(pr), command: "use a template string", ...inputs },
    { GITHUB_RUN_ID: String(created?.id) },
  );
  return { run, modelCalls: h.fake.requests.length - firstRequest };
}

describe("mode iterate on a person's pull request", () => {
  it("with pr.humanPrs, adds one commit on top of theirs with a Co-authored-by trailer for the requester", async () => {
    const { pr, sha } = await danasPullRequest("dana/hey");
    h.fake.setScript([
      reply(
        call("edit_file", { path: "src/greet.js", old_text: '"Hey, " + name', new_text: "`Hey, ${name}`" }),
      ),
      reply(call("finish", { summary: "Switched to a template string." })),
    ]);

    const { run } = await iterate(pr, { "config-path": HUMAN_PRS });

    expect(run.stderr).toBe("");
    expect(run.outputs["status"]).toBe("succeeded");
    const log = await h.git(["log", "--format=%H %s", "origin/main..origin/dana/hey"]);
    const [ours, theirs] = log.trim().split("\n");
    expect(theirs).toBe(`${sha} Say hey`);
    expect(ours).toMatch(new RegExp(`^[0-9a-f]{40} fix: address review feedback \\(#${pr}\\)$`));
    const rev = findUser(h.sim.store, "rev")?.id;
    const message = await h.git(["log", "-1", "--format=%B", "origin/dana/hey"]);
    expect(message.trim()).toBe(
      `fix: address review feedback (#${pr})\n\nCo-authored-by: rev <${rev}+rev@users.noreply.github.com>`,
    );
    expect(await h.git(["log", "-1", "--format=%an", "origin/dana/hey"])).toContain(
      h.bot.login.replace("[bot]", ""),
    );
    expect(await h.show("dana/hey", "src/greet.js")).toContain("`Hey, ${name}`");
    const pull = await h.api.getIssue(pr);
    expect(pull?.labels).toEqual([]);
    expect(pull?.comments.some((c) => c.body.startsWith("Locus addressed the review feedback"))).toBe(true);
    const status = pull?.comments.find((c) => c.body.startsWith("<!-- locus:status -->"));
    expect(status?.body).toContain(`for the review feedback on PR #${pr}.`);
  });

  it("without pr.humanPrs, says once how to turn it on and runs no model", async () => {
    const { pr, sha } = await danasPullRequest("dana/hello");

    const { run, modelCalls } = await iterate(pr);

    expect(run.outputs["status"]).not.toBe("succeeded");
    expect(modelCalls).toBe(0);
    const replies = ((await h.api.getIssue(pr))?.comments ?? []).filter((c) => c.author === h.bot.login);
    expect(replies.map((c) => c.body)).toEqual([expect.stringContaining("`pr.humanPrs: true`")]);
    expect((await h.git(["rev-parse", "origin/dana/hello"])).trim()).toBe(sha);
  });

  it("when the person pushes while Locus works, leaves their branch as they made it and keeps the work on a wip branch", async () => {
    const { pr } = await danasPullRequest("dana/race");
    const theirs = await (async () => {
      await h.git(["checkout", "--quiet", "-B", "dana-later", "origin/dana/race"]);
      await writeFile(join(h.scratch, "README.md"), "# widgets, by Dana\n");
      await h.git([
        "-c",
        "user.name=Dana",
        "-c",
        "user.email=dana@example.com",
        "commit",
        "--quiet",
        "-am",
        "Readme",
      ]);
      return (await h.git(["rev-parse", "HEAD"])).trim();
    })();
    h.fake.setScript([
      reply(
        call("edit_file", { path: "src/greet.js", old_text: '"Hey, " + name', new_text: "`Hey, ${name}`" }),
      ),
      () => {
        execFileSync("git", ["push", "--quiet", "origin", "dana-later:refs/heads/dana/race"], {
          cwd: h.scratch,
        });
        return reply(call("finish", { summary: "Switched to a template string." }));
      },
    ]);

    const { run } = await iterate(pr, { "config-path": HUMAN_PRS });

    expect(run.outputs["status"]).toBe("failed");
    expect((await h.git(["rev-parse", "origin/dana/race"])).trim()).toBe(theirs);
    const wip = `locus/wip/issue-${pr}`;
    expect(await h.show(wip, "src/greet.js")).toContain("`Hey, ${name}`");
    const last = (await h.api.getIssue(pr))?.comments.at(-1)?.body ?? "";
    expect(last).toContain("Locus did not push");
    expect(last).toContain(wip);
  });
});
