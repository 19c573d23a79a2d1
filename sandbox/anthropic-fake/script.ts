/** Short builders for scripted turns: `reply(say("Reading it"), call("read_file", { path: "a.ts" }))`. */
import type { FakeBlock, FakeResponse } from "./types.ts";

export function say(text: string): FakeBlock {
  return { type: "text", text };
}

export function call(name: string, input: Record<string, unknown>): FakeBlock {
  return { type: "tool_use", name, input };
}

export function reply(...content: FakeBlock[]): FakeResponse {
  return { content };
}
