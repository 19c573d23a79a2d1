import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../lib/agent/events.ts";
import { NO_USAGE } from "../../../lib/agent/usage.ts";
import { createSecretMask } from "../../../lib/secrets/secret-mask.ts";
import { createFileSink } from "../../../lib/session-record/file-sink.ts";
import { parseRecord, recordEvents, summarizeRecord } from "../../../lib/session-record/record-summary.ts";
import { capText, createRecordWriter } from "../../../lib/session-record/record-writer.ts";

const SECRET = "ghs_runTokenValue0123456789abcdefghijklmn";

function memoryWriter(maxStringChars?: number) {
  const lines: string[] = [];
  let now = 1_000;
  const writer = createRecordWriter({
    sink: { append: (line) => lines.push(line) },
    clock: () => now,
    mask: createSecretMask([SECRET]),
    ...(maxStringChars === undefined ? {} : { maxStringChars }),
  });
  return { writer, lines, advance: (ms: number) => (now += ms) };
}

const toolStarted: AgentEvent = { type: "tool_started", id: "t1", tool: "bash", params: { command: "ls" } };

describe("createRecordWriter", () => {
  it("writes one JSON line per event as it comes, stamped from the injected clock", () => {
    const { writer, lines, advance } = memoryWriter();
    writer.writePrompts({ system: "be careful", context: "tree", task: "fix it", tools: [{ name: "bash" }] });
    advance(250);
    writer.onEvent(toolStarted);
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.endsWith("\n"))).toBe(true);
    const parsed = parseRecord(lines.join(""));
    expect(parsed.map((line) => [line.seq, line.atMs, line.kind])).toEqual([
      [0, 0, "prompts"],
      [1, 250, "event"],
    ]);
    expect(recordEvents(parsed)).toEqual([toolStarted]);
  });

  it("masks the run's secrets in every string, keys and nested values included", () => {
    const { writer, lines } = memoryWriter();
    writer.writePrompts({
      system: `token ${SECRET}`,
      context: "c",
      task: "t",
      tools: [{ [SECRET]: [SECRET] }],
    });
    writer.onEvent({
      type: "tool_completed",
      id: "t1",
      tool: "bash",
      duration: 3,
      ok: true,
      summary: `echo ${SECRET}`,
    });
    const text = lines.join("");
    expect(text).not.toContain(SECRET);
    expect(text).toContain("***");
  });

  it("caps long strings and says how much was left out, after masking", () => {
    const { writer, lines } = memoryWriter(10);
    writer.onEvent({ type: "text_delta", content: `${"a".repeat(20)}` });
    writer.onEvent({ type: "text_delta", content: `${SECRET}` });
    const [long, secret] = recordEvents(parseRecord(lines.join("")));
    expect(long).toEqual({ type: "text_delta", content: capText("a".repeat(20), 10) });
    expect(capText("a".repeat(20), 10)).toBe("aaaaaaaaaa… [10 more characters not recorded]");
    expect(secret).toEqual({ type: "text_delta", content: "***" });
  });
});

describe("summarizeRecord", () => {
  it("counts turns, tool calls, cost and time", () => {
    const { writer, lines, advance } = memoryWriter();
    writer.onEvent(toolStarted);
    writer.onEvent({ type: "turn", turn: 1, usage: NO_USAGE, costUsd: 0.25 });
    advance(4_000);
    writer.onEvent({ type: "turn", turn: 2, usage: NO_USAGE, costUsd: 0.5 });
    expect(summarizeRecord(parseRecord(lines.join("")))).toEqual({
      turns: 2,
      toolCalls: 1,
      costUsd: 0.75,
      durationMs: 4_000,
    });
  });

  it("keeps the lines before one a crash cut short", () => {
    const { writer, lines } = memoryWriter();
    writer.onEvent(toolStarted);
    expect(parseRecord(`${lines.join("")}{"seq":1,"atMs`)).toHaveLength(1);
  });
});

describe("createFileSink", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("appends each line to the file at once", () => {
    dir = mkdtempSync(join(tmpdir(), "record-"));
    const path = join(dir, "nested", "session.jsonl");
    const sink = createFileSink(path);
    expect(readFileSync(path, "utf8")).toBe("");
    sink.append("one\n");
    expect(readFileSync(path, "utf8")).toBe("one\n");
    sink.append("two\n");
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\n");
  });
});
