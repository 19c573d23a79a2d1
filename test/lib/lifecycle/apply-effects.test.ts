import { describe, expect, it } from "vitest";
import type { Comment, MomentResult, MomentWrite } from "../../../lib/github/index.ts";
import type { StatusWriter } from "../../../lib/lifecycle/status-writer.ts";
import { applyEffects, applyLabelSets, type EffectTarget } from "../../../lib/lifecycle/apply-effects.ts";
import { EMPTY_STATE } from "../../../lib/status/status-comment.ts";

/** The slice of GitHub the applier uses, recording every call in order. */
function fakeTarget() {
  const calls: string[] = [];
  const answer = (writes: readonly MomentWrite[]): MomentResult => {
    const labels = new Map<number, string[]>();
    for (const write of writes) if (write.kind === "labels") labels.set(write.number, [...write.labels]);
    return { labels, comments: new Map() };
  };
  const writeStatus: StatusWriter = (view, _state, alongside = []) => {
    calls.push(
      `status "${view.headline}" with ${alongside.map((write) => write.kind).join("+") || "nothing"}`,
    );
    return Promise.resolve(answer(alongside));
  };
  let id = 0;
  const target: EffectTarget = {
    issue: { number: 3, nodeId: "I_3" },
    writeStatus,
    mask: (text) => text.replaceAll("s3cret", "***"),
    gateway: {
      removeLabel(issue, label) {
        calls.push(`remove ${label} from #${issue}`);
        // The second removal of the same label is GitHub's 404: someone took it first.
        const first = !calls.slice(0, -1).includes(`remove ${label} from #${issue}`);
        return Promise.resolve(first);
      },
      writeMoment(writes) {
        calls.push(`moment ${writes.map((write) => write.kind).join("+")}`);
        return Promise.resolve(answer(writes));
      },
      createComment(issue, body) {
        calls.push(`comment on #${issue}: ${body}`);
        id += 1;
        const at = "2026-11-24T10:00:00Z";
        const comment: Comment = {
          id,
          body,
          author: "locus[bot]",
          authorType: "Bot",
          authorAssociation: "NONE",
          createdAt: at,
          updatedAt: at,
          url: `https://github.test/issues/${issue}#comment-${id}`,
        };
        return Promise.resolve(comment);
      },
    },
  };
  return { calls, target };
}

describe("applyEffects", () => {
  it("sends the labels, the status comment and the moment's other writes together, then posts comments masked", async () => {
    const { calls, target } = fakeTarget();
    const dashboard: MomentWrite = { kind: "body", number: 1, body: "dashboard" };
    const applied = await applyEffects(
      target,
      [
        { kind: "labels", labels: ["locus:failed"] },
        { kind: "status", view: { headline: "Failed" }, state: EMPTY_STATE },
        { kind: "comment", role: "failure", body: "token s3cret leaked" },
      ],
      [dashboard],
    );
    expect(calls).toEqual(['status "Failed" with labels+body', "comment on #3: token *** leaked"]);
    expect(applied.labels).toEqual(["locus:failed"]);
    expect(applied.comments.map((comment) => comment.id)).toEqual([1]);
  });

  it("sends labels without a status comment as a moment of their own", async () => {
    const { calls, target } = fakeTarget();
    const applied = await applyEffects(target, [
      { kind: "labels", labels: ["locus:waiting"] },
      { kind: "comment", role: "question", body: "Which API?" },
    ]);
    expect(calls).toEqual(["moment labels", "comment on #3: Which API?"]);
    expect(applied.labels).toEqual(["locus:waiting"]);
  });

  it("writes nothing for a step without effects", async () => {
    const { calls, target } = fakeTarget();
    expect(await applyEffects(target, [])).toEqual({ comments: [] });
    expect(calls).toEqual([]);
  });

  it("takes one label off alone and says whether it was there to take", async () => {
    const { calls, target } = fakeTarget();
    const claim = [{ kind: "remove-label", label: "locus:queued" }] as const;
    expect(await applyEffects(target, claim)).toEqual({ removed: true, comments: [] });
    expect(await applyEffects(target, claim)).toEqual({ removed: false, comments: [] });
    expect(calls).toEqual(["remove locus:queued from #3", "remove locus:queued from #3"]);
  });
});

describe("applyLabelSets", () => {
  it("sends many issues' label sets 50 to a request, and refuses any other effect", async () => {
    const { calls, target } = fakeTarget();
    const steps = Array.from({ length: 120 }, (_, index) => ({
      issue: { number: index + 1 },
      effects: [{ kind: "labels" as const, labels: ["locus:queued"] }],
    }));
    await applyLabelSets(target.gateway, steps);
    expect(calls.map((call) => call.split("+").length)).toEqual([50, 50, 20]);
    await expect(
      applyLabelSets(target.gateway, [
        { issue: { number: 1 }, effects: [{ kind: "status", view: { headline: "x" }, state: EMPTY_STATE }] },
      ]),
    ).rejects.toThrow("only label sets");
  });
});
