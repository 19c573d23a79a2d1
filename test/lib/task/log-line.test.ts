import { describe, expect, it } from "vitest";
import { logLine } from "../../../lib/task/log-line.ts";
import { createEventRecorder } from "../../../lib/task/tool-cards.ts";

/** What the runner reads: each line, as it would test it for a workflow command. */
function startsCommand(printed: string): boolean {
  return printed.split(/\r\n|\n|\r/).some((line) => /^\s*(?:::|##\[)/.test(line));
}

describe("logLine", () => {
  it.each([
    "src/a\n::stop-commands::x",
    "a\r::add-mask::x",
    "a\r\n##[set-output name=x]y",
    "::warning::from the agent",
    "   ::error::indented",
    "##[group]x",
    "a\u2028::x::y",
  ])("keeps %j on one line that starts no command", (text) => {
    const line = logLine(text);
    expect(startsCommand(line)).toBe(false);
    expect(line).not.toMatch(/[\n\r]/);
  });

  it("leaves an ordinary line as it is", () => {
    expect(logLine("✓ Read src/a.ts (245 lines)")).toBe("✓ Read src/a.ts (245 lines)");
  });
});

describe("the tool-card log", () => {
  it("prints a file path holding a workflow command as one inert line", () => {
    const printed: string[] = [];
    const recorder = createEventRecorder((line) => printed.push(line));
    const path = "src/x\n::stop-commands::token123\n.ts";
    recorder.onEvent({ type: "text_delta", content: `I will edit ${path}` });
    recorder.onEvent({
      type: "tool_completed",
      id: "1",
      tool: "edit_file",
      duration: 1,
      ok: true,
      summary: `Edit ${path}`,
    });
    recorder.onEvent({ type: "warning", message: `::stop-commands::x` });
    expect(printed).toHaveLength(3);
    for (const line of printed) expect(startsCommand(line)).toBe(false);
    expect(startsCommand(recorder.tail(10))).toBe(false);
  });
});
