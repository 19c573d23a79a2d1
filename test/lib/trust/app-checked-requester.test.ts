import { describe, expect, it } from "vitest";
import type { StatusRecord } from "../../../lib/status/status-store.ts";
import { appCheckedRequester } from "../../../lib/trust/app-checked-requester.ts";

const BOT = "locus-acme[bot]";
const run = { actor: BOT, delivery: "d-1", bot: BOT };

function record(author: string, state: Partial<StatusRecord["state"]>): StatusRecord {
  return {
    comment: {
      id: 1,
      body: "",
      author,
      authorType: "Bot",
      createdAt: "2026-11-28T10:00:00Z",
      updatedAt: "2026-11-28T10:00:00Z",
      url: "",
      authorAssociation: "NONE",
    },
    state: { deliveries: ["d-1"], attempts: 0, ...state },
  };
}

describe("the app's check of who asked, reused by its run", () => {
  it("is taken when the app's bot started the run and its record names this delivery", () => {
    expect(appCheckedRequester(run, record(BOT, { requester: "alice", requesterDelivery: "d-1" }))).toBe(
      "alice",
    );
  });

  it("is not taken for another delivery, without a delivery, or with no requester", () => {
    expect(
      appCheckedRequester(run, record(BOT, { requester: "alice", requesterDelivery: "d-0" })),
    ).toBeUndefined();
    expect(appCheckedRequester(run, record(BOT, { requester: "alice" }))).toBeUndefined();
    expect(appCheckedRequester(run, record(BOT, { requesterDelivery: "d-1" }))).toBeUndefined();
    expect(
      appCheckedRequester(
        { ...run, delivery: "" },
        record(BOT, { requester: "alice", requesterDelivery: "" }),
      ),
    ).toBeUndefined();
  });

  it("is not taken when someone else started the run or wrote the record", () => {
    const checked = { requester: "alice", requesterDelivery: "d-1" };
    expect(appCheckedRequester({ ...run, actor: "mallory" }, record(BOT, checked))).toBeUndefined();
    expect(appCheckedRequester(run, record("github-actions[bot]", checked))).toBeUndefined();
    expect(appCheckedRequester(run, record("mallory", checked))).toBeUndefined();
    // On the workflow's own token any workflow of the repository can dispatch as the Actions bot.
    const actions = { actor: "github-actions[bot]", delivery: "d-1", bot: "github-actions[bot]" };
    expect(appCheckedRequester(actions, record("github-actions[bot]", checked))).toBeUndefined();
  });

  it("is not taken without a status comment", () => {
    expect(
      appCheckedRequester(run, {
        comment: null,
        state: { deliveries: ["d-1"], attempts: 0, requester: "alice", requesterDelivery: "d-1" },
      }),
    ).toBeUndefined();
  });
});
