import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { withCacheBreakpoints } from "../../../lib/agent/cache-breakpoints.ts";
import type { ConversationMessage } from "../../../lib/agent/conversation.ts";

const tools: Anthropic.Tool[] = ["read_file", "finish"].map((name) => ({
  name,
  description: name,
  input_schema: { type: "object" },
}));
const system: Anthropic.TextBlockParam[] = [
  { type: "text", text: "rules" },
  { type: "text", text: "repository context" },
];

function marked(value: unknown): number {
  return JSON.stringify(value).match(/"cache_control"/g)?.length ?? 0;
}

describe("withCacheBreakpoints", () => {
  it("marks the last tool, the last system block and the task on the first turn", () => {
    const messages: ConversationMessage[] = [{ role: "user", content: "Fix it" }];
    const prompt = withCacheBreakpoints(tools, system, messages);

    expect(prompt.tools[1]).toHaveProperty("cache_control", { type: "ephemeral" });
    expect(prompt.tools[0]).not.toHaveProperty("cache_control");
    expect(prompt.system[1]).toHaveProperty("cache_control", { type: "ephemeral" });
    expect(prompt.messages[0]?.content).toEqual([
      { type: "text", text: "Fix it", cache_control: { type: "ephemeral" } },
    ]);
    expect(marked(prompt)).toBe(3);
  });

  it("marks only the two latest user turns of a long conversation, never more than 4 in all", () => {
    const messages: ConversationMessage[] = [{ role: "user", content: "task" }];
    for (let i = 0; i < 6; i += 1) {
      messages.push(
        { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "read_file", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "x" }] },
      );
    }
    const prompt = withCacheBreakpoints(tools, system, messages);

    expect(marked(prompt)).toBe(4);
    expect(marked(prompt.messages.slice(-3))).toBe(2);
    expect(marked(messages)).toBe(0);
  });
});
