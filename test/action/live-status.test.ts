import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h.close();
});

/** Every body the issue's status comment had, in order, as the simulator's webhooks reported them. */
function statusHistory(issue: number): string[] {
  return h.sim.webhooks.deliveries
    .filter((delivery) => delivery.event === "issue_comment")
    .map((delivery) => delivery.payload as { issue: { number: number }; comment: { body: string } })
    .filter(
      (payload) => payload.issue.number === issue && payload.comment.body.startsWith("<!-- locus:status -->"),
    )
    .map((payload) => /\*\*Locus:\*\* (.*)/.exec(payload.comment.body)?.[1] ?? "");
}

describe("the status comment during a task", () => {
  it("shows the tool the agent is running while it works, and ends on the finished state", async () => {
    const issue = await h.api.createIssue({
      title: "Greet politely",
      body: "Say Hi.",
      labels: ["locus:queued"],
    });
    h.fake.setScript([
      reply(call("run_shell", { command: "node --version" })),
      reply(call("read_file", { path: "src/greet.js" })),
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
      reply(call("finish", { summary: "Greeting now says Hi." })),
    ]);

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.stderr).toBe("");
    expect(run.outputs["status"]).toBe("succeeded");
    const history = statusHistory(issue.number);
    expect(history.slice(0, 2)).toEqual([
      "Working — getting started.",
      "Working — running `node --version` (turn 1)",
    ]);
    // Later tools are shown only when the throttle's interval has passed: none on a fast machine.
    for (const middle of history.slice(2, -1)) expect(middle).toMatch(/^Working — \w.* \(turn [2-4]\)$/);
    expect(history.at(-1)).toBe(`Pull request #${run.outputs["pr-number"]} is ready for review.`);
    const comment = (await h.api.getIssue(issue.number))?.comments.find((c) =>
      c.body.startsWith("<!-- locus:status -->"),
    );
    expect(comment?.body).toContain(
      `**Locus:** Pull request #${run.outputs["pr-number"]} is ready for review.`,
    );
  });

  it("ends a failed task on the reason and what to do", async () => {
    const issue = await h.api.createIssue({
      title: "Shout",
      body: "Make it loud.",
      labels: ["locus:queued"],
    });
    h.fake.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "HELLO, " })),
      { status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "broken" } } },
    ]);

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.outputs["status"]).toBe("failed");
    const history = statusHistory(issue.number);
    expect(history.slice(0, 2)).toEqual([
      "Working — getting started.",
      "Working — editing `src/greet.js` (turn 1)",
    ]);
    const body =
      (await h.api.getIssue(issue.number))?.comments.find((c) => c.body.startsWith("<!-- locus:status -->"))
        ?.body ?? "";
    // The detail line is published as untrusted text: the word "fix" carries an invisible joiner.
    expect(body).toMatch(/\*\*Locus:\*\* Failed: .*broken/);
    expect(body).toContain(
      `- **What to do:** the work so far is saved on \`locus/wip/issue-${issue.number}\`; f\u2060ix what stopped it if it needs a person, then comment \`/locus run\` to continue from there.`,
    );
    expect(history.at(-1)).toMatch(/^Failed: /);
  });
});
