/**
 * Mode `ask` (lib/action/modes/ask.ts) run in process on the typed fake
 * gateway: the replies it gives before any checkout or model is needed. The
 * bundled Action's own runs of the mode (a real agent answering in the real
 * sandbox) are test/action/read-only-modes-trigger.test.ts and its neighbours.
 */
import { describe, expect, it } from "vitest";
import { runAskMode } from "../../../../lib/action/modes/ask.ts";
import { createGitHubFake } from "../../../fakes/github-fake.ts";
import { fakeActionContext } from "../../../fakes/action-context.ts";

describe("mode ask, in process", () => {
  it("asks for a question when the command carries none, and starts no agent", async () => {
    const fake = createGitHubFake();
    const issue = fake.seedIssue({ title: "Where is the parser?", labels: [] });

    const result = await runAskMode({ ...fakeActionContext(fake), command: "   " }, { issue: issue.number });

    expect(result.tasks).toEqual([]);
    expect(result.note).toMatch(/no question to answer/);
    const comments = fake.callsOf("createComment");
    expect(comments).toHaveLength(1);
    expect(comments[0]?.[0]).toBe(issue.number);
    expect(String(comments[0]?.[1])).toContain("/locus ask <question>");
  });

  it("says the thread does not exist and writes nothing", async () => {
    const fake = createGitHubFake();

    const result = await runAskMode({ ...fakeActionContext(fake), command: "Why?" }, { issue: 404 });

    expect(result).toEqual({ tasks: [], note: "#404 does not exist." });
    expect(fake.callsOf("createComment")).toEqual([]);
  });
});
