import { describe, expect, it } from "vitest";
import { renderTrackingDashboard } from "../../../lib/render/tracking-dashboard.ts";
import { redrawDashboard } from "../../../lib/sprint/dashboard-refresh.ts";

const milestone = { number: 4, title: "Voices", dueOn: null };

describe("redrawDashboard", () => {
  it("takes statuses from the labels and keeps what the last drawing recorded", () => {
    const before = renderTrackingDashboard(
      milestone,
      [
        {
          number: 11,
          title: "First",
          order: 1,
          labels: ["locus:in-review"],
          pr: 21,
          attempts: 2,
          durationMs: 95_000,
          costUsd: 0.42,
        },
        { number: 12, title: "Second", order: 2, labels: ["locus:queued"] },
      ],
      { state: "stopped", message: "#12 is waiting for an answer.", runUrl: "https://example.test/run/1" },
    );

    const after = redrawDashboard(
      milestone,
      [
        { number: 12, title: "Second", labels: ["locus:waiting", "order:2"], state: "open" },
        { number: 11, title: "First", labels: ["locus:done", "order:1"], state: "closed" },
      ],
      before,
    );

    expect(after).toContain("| 1 | #11 | First | done | #21 | 2 | 1 min 35 s | $0.4200 |");
    expect(after).toContain("| 2 | #12 | Second | waiting | — | 0 | — | — |");
    expect(after).toContain("#12 is waiting for an answer.");
    expect(after).toContain("[workflow run](https://example.test/run/1)");
    expect(after).not.toBe(before);
  });
});
