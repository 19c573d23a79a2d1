/**
 * GitHub's rules for starting the Locus workflow, met by the app: a dispatch
 * GitHub refuses for good is told on the issue once, with GitHub's message
 * and what to change, and never sent again; a command too long for a run's
 * inputs is refused before anything is sent; an Enterprise Server that
 * refuses `return_run_details` still gets its run, found by name.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MAX_COMMAND_CHARS } from "../../lib/dispatch/dispatch-refusal.ts";
import { readmeCallerWorkflow } from "../../sandbox/world/caller-workflow.ts";
import { commentsOf, labelsOf, newIssue, owner, repo, runs } from "./github-helpers.ts";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
afterEach(() => h.close());

function dispatchAnswers(since: number): number[] {
  return h.sim.requestLog
    .slice(since)
    .filter((entry) => entry.path.endsWith("/dispatches"))
    .map((entry) => entry.status);
}

async function queue(issue: number): Promise<void> {
  await h.as("alice").rest.issues.addLabels({ owner, repo, issue_number: issue, labels: ["locus:queued"] });
  await h.settle();
}

describe("a dispatch GitHub refuses", () => {
  it("is told once on the issue with GitHub's message and what to change, the issue failed, never resent", async () => {
    // A caller workflow from before `command` existed.
    const outdated = readmeCallerWorkflow().replace(/^ {6}command: .*\n/m, "");
    h = await startAppHarness({
      files: { "README.md": "# demo\n", ".github/workflows/locus.yml": outdated },
    });
    const issue = await newIssue(h, "Greet by name");
    const since = h.sim.requestLog.length;

    await queue(issue);
    const labeled = h.sim.webhooks.deliveries
      .filter((d) => d.event === "issues" && d.action === "labeled")
      .at(-1);
    if (labeled) h.sim.webhooks.redeliver(labeled);
    await h.settle();

    expect(labeled).toBeDefined();
    expect(dispatchAnswers(since)).toEqual([422]);
    expect(runs(h)).toHaveLength(0);
    const told = (await commentsOf(h, issue)).filter((body) => body.includes("refused to start"));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("`.github/workflows/locus.yml` has no input `command`");
    // GitHub's message is quoted as text: its bracket is escaped, and reads the same on the page.
    expect(told[0]).toContain('Unexpected inputs provided: \\["command"]');
    expect(told[0]).toContain("Update it from the Locus README");
    expect(await labelsOf(h, issue)).toContain("locus:failed");
  });

  it("names a missing workflow file and where to add it", async () => {
    h = await startAppHarness({ files: { "README.md": "# demo\n" } });
    const issue = await newIssue(h, "Greet by name");

    await queue(issue);

    const [told] = (await commentsOf(h, issue)).filter((body) => body.includes("refused to start"));
    expect(told).toContain("has no `.github/workflows/locus.yml` on `main`");
    expect(await labelsOf(h, issue)).toContain("locus:failed");
  });
});

describe("a command too long for a run's inputs", () => {
  it("gets a clear reply and sends nothing to GitHub", async () => {
    h = await startAppHarness();
    const issue = await newIssue(h, "Explain the code");
    const since = h.sim.requestLog.length;

    const question = "why ".repeat(Math.ceil(MAX_COMMAND_CHARS / 4) + 10);
    await h
      .as("alice")
      .rest.issues.createComment({ owner, repo, issue_number: issue, body: `/locus ask ${question}` });
    await h.settle();

    expect(dispatchAnswers(since)).toEqual([]);
    const told = (await commentsOf(h, issue)).filter((body) =>
      body.includes("Not started: the text after the command"),
    );
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("Shorten it");
  });
});

describe("on an Enterprise Server that refuses return_run_details", () => {
  it("dispatches again without it and links the run found by its name", async () => {
    h = await startAppHarness({ dispatchRunDetails: "rejected" });
    const issue = await newIssue(h, "Greet by name");
    const since = h.sim.requestLog.length;

    await queue(issue);

    expect(dispatchAnswers(since)).toEqual([422, 204]);
    const [run] = runs(h);
    expect((await commentsOf(h, issue)).join("\n")).toContain(`/${owner}/${repo}/actions/runs/${run?.id}`);
  });
});
