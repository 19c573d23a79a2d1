/**
 * Mode `plan` (lib/action/modes/plan.ts) run in process on the typed fake
 * gateway: the targets it declines before any checkout or model is needed.
 * The bundled Action's own runs of the mode are test/action/plan-mode.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runPlanMode } from "../../../../lib/action/modes/plan.ts";
import { createGitHubFake } from "../../../fakes/github-fake.ts";
import { fakeActionContext } from "../../../fakes/action-context.ts";

describe("mode plan, in process", () => {
  it("asks for the issue to be reopened when it is closed, and plans nothing", async () => {
    const fake = createGitHubFake();
    const issue = fake.seedIssue({ title: "Add a flag", labels: [] });
    issue.state = "closed";

    const result = await runPlanMode(fakeActionContext(fake), issue.number);

    expect(result).toEqual({ tasks: [], note: `#${issue.number} is closed; reopen it to plan here.` });
    expect(fake.callsOf("createComment")).toEqual([[issue.number, result.note]]);
  });

  it("declines a number that is not an issue without writing", async () => {
    const fake = createGitHubFake();

    const result = await runPlanMode(fakeActionContext(fake), 77);

    expect(result).toEqual({ tasks: [], note: "#77 is not an issue." });
    expect(fake.callsOf("createComment")).toEqual([]);
  });
});
