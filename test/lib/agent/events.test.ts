import { describe, expect, it } from "vitest";
import { serializeEvent, type AgentEvent } from "../../../lib/agent/events.ts";

describe("serializeEvent", () => {
  it("writes one JSON object per line", () => {
    const events: AgentEvent[] = [
      { type: "text_delta", content: "line one\nline two" },
      {
        type: "error",
        message: "529 overloaded_error: Overloaded",
        retryable: true,
        attempt: 1,
        retryInSeconds: 1,
      },
    ];
    const text = events.map(serializeEvent).join("");

    expect(text.split("\n")).toHaveLength(3);
    expect(text.endsWith("\n")).toBe(true);
    expect(
      text
        .split("\n")
        .slice(0, 2)
        .map((line) => JSON.parse(line) as AgentEvent),
    ).toEqual(events);
  });
});
