/**
 * Mode `review` (lib/action/modes/review.ts) run in process on the typed fake
 * gateway: a target that is not an open pull request is declined before any
 * checkout or model. The bundled Action's own runs are
 * test/action/review-mode.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runReviewMode } from "../../../../lib/action/modes/review.ts";
import { createGitHubFake } from "../../../fakes/github-fake.ts";
import { fakeActionContext } from "../../../fakes/action-context.ts";

describe("mode review, in process", () => {
  it("declines an issue, which is no pull request, without commenting on it", async () => {
    const fake = createGitHubFake();
    const issue = fake.seedIssue({ title: "Not a PR", labels: [] });

    const result = await runReviewMode(fakeActionContext(fake), issue.number);

    expect(result).toEqual({
      tasks: [],
      note: `PR #${issue.number} is not open, so Locus did not review it.`,
    });
    expect(fake.callsOf("createComment")).toEqual([]);
  });
});
