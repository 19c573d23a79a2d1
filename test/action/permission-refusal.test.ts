/**
 * A permission GitHub refuses is told on the issue by name, with where to
 * grant it: an installation token without `pull_requests: write` (an app
 * registered before Locus asked for it, say) cannot open the pull request,
 * GitHub answers 403 naming `pull_requests=write` in
 * `x-accepted-github-permissions`, and the failure comment quotes it. A
 * refusal that stops the run before any task (its first read asks the
 * workflow run, which needs `actions: read`) is told on the issue too.
 * https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { mintInstallationToken } from "../../sandbox/github-sim/app-auth.ts";
import { startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h.close();
});

describe("a permission the token lacks", () => {
  it("fails the task with a comment naming the permission and where to grant it", async () => {
    const issue = await h.api.createIssue({
      title: "Greet politely",
      body: "Say Hi.",
      labels: ["locus:queued"],
    });
    h.fake.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
      reply(call("finish", { summary: "Greeting now says Hi." })),
    ]);
    const installation = [...h.sim.store.installations.values()][0];
    if (!installation) throw new Error("the harness installed no app");
    const withoutPulls = mintInstallationToken(h.sim.store, installation.id, {
      metadata: "read",
      contents: "write",
      issues: "write",
      checks: "read",
      actions: "read",
    }).token;

    const run = await h.run({ mode: "issue", issue: String(issue.number), "github-token": withoutPulls });

    expect(run.outputs["status"]).toBe("failed");
    expect(h.sim.store.permissionViolations).toContainEqual(
      expect.objectContaining({ kind: "refused", route: "POST /repos/{owner}/{repo}/pulls" }),
    );
    const after = await h.api.getIssue(issue.number);
    const report = after?.comments.find((c) => c.body.includes("could not finish"))?.body ?? "";
    expect(report).toContain('lacks the "pull_requests: write" permission');
    expect(report).toContain("grant it to the GitHub App (its settings page, Permissions & events");
    expect(report).toContain("`permissions:`");
  }, 120_000);

  it("stops before the task when the first read is refused, and says so on the issue", async () => {
    const issue = await h.api.createIssue({ title: "Greet", body: "Say Hi.", labels: ["locus:queued"] });
    const installation = [...h.sim.store.installations.values()][0];
    if (!installation) throw new Error("the harness installed no app");
    const withoutActions = mintInstallationToken(h.sim.store, installation.id, {
      metadata: "read",
      contents: "write",
      issues: "write",
      pull_requests: "write",
      checks: "read",
    }).token;

    const run = await h.run({ mode: "issue", issue: String(issue.number), "github-token": withoutActions });

    expect(run.code).not.toBe(0);
    const report = (await h.api.listIssueComments(issue.number)).at(-1)?.body ?? "";
    expect(report).toContain("**Locus stopped:**");
    expect(report).toContain('lacks the "actions: read" permission');
    expect(report).toContain("grant it to the GitHub App");
  }, 120_000);
});
