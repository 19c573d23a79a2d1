import { describe, expect, it } from "vitest";
import type { ConversationMessage } from "../../../lib/agent/conversation.ts";
import { trimContext, trimmedResultText } from "../../../lib/agent/context-trim.ts";

function conversation(results: readonly string[]): ConversationMessage[] {
  const messages: ConversationMessage[] = [{ role: "user", content: "task" }];
  results.forEach((content, i) => {
    messages.push(
      { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "read_file", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content }] },
    );
  });
  return messages;
}

const summaries = new Map([0, 1, 2, 3].map((i) => [`t${i}`, `Read file${i}.ts`]));
const bulky = "x".repeat(4000);

describe("trimContext", () => {
  it("does nothing below the threshold", () => {
    const messages = conversation([bulky, bulky]);
    expect(
      trimContext(messages, summaries, { thresholdTokens: 10_000, keepTurns: 1, minBatchTokens: 1 }),
    ).toBe(0);
  });

  it("trims every old bulky result at once, keeping the last turns and small results", () => {
    const messages = conversation([bulky, "short", bulky, bulky]);

    const trimmed = trimContext(messages, summaries, {
      thresholdTokens: 1000,
      keepTurns: 1,
      minBatchTokens: 1000,
    });

    expect(trimmed).toBe(2);
    expect(messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "t0", content: trimmedResultText("Read file0.ts") },
    ]);
    expect(JSON.stringify(messages[4]?.content)).toContain("short");
    expect(JSON.stringify(messages[8]?.content)).toContain(bulky);
  });

  it("waits until a batch is worth breaking the cache for", () => {
    const messages = conversation([bulky, bulky]);
    expect(
      trimContext(messages, summaries, { thresholdTokens: 1000, keepTurns: 1, minBatchTokens: 5000 }),
    ).toBe(0);
  });
});
