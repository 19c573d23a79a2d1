import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentEvent } from "../../../lib/agent/events.ts";
import type { AgentRunner, ExecuteOptions, RunResult } from "../../../lib/agent/runner.ts";
import { NO_USAGE } from "../../../lib/agent/usage.ts";
import { parseRecord, recordEvents } from "../../../lib/session-record/record-summary.ts";
import { createRecordWriter } from "../../../lib/session-record/record-writer.ts";
import { recordingRunner } from "../../../lib/session-record/recording-runner.ts";

const EVENTS: AgentEvent[] = [
  { type: "start", runner: "builtin", model: "m", timestamp: "2026-01-01T00:00:00Z" },
  { type: "tool_started", id: "1", tool: "read", params: { path: "a.ts" } },
  { type: "tool_completed", id: "1", tool: "read", duration: 2, ok: true, summary: "Read a.ts" },
  { type: "done", success: true, stats: { duration: 5, turns: 1, tools: 1, tokens: 0, costUsd: 0 } },
];

const RESULT: RunResult = {
  success: true,
  summary: "done",
  stop: "finished",
  turns: 1,
  usage: NO_USAGE,
  costUsd: 0,
  toolCalls: [],
  filesChanged: [],
  questions: [],
};

/** A runner that emits a fixed stream of events. */
const scripted: AgentRunner = {
  name: "builtin",
  isAvailable: () => Promise.resolve(true),
  version: () => Promise.resolve("1"),
  execute: (options: ExecuteOptions) => {
    for (const event of EVENTS) options.onEvent?.(event);
    return Promise.resolve(RESULT);
  },
};

describe("recordingRunner", () => {
  it("records the prompts, then every event in order, and still passes each to the caller", async () => {
    const lines: string[] = [];
    const record = createRecordWriter({
      sink: { append: (line) => lines.push(line) },
      clock: () => 0,
      mask: (t) => t,
    });
    const seen: AgentEvent[] = [];
    const result = await recordingRunner(scripted, record).execute({
      prompt: { system: "rules", context: "tree", task: "fix #1" },
      cwd: "/tmp",
      model: "m",
      maxTurns: 3,
      onEvent: (event) => seen.push(event),
      tools: [
        {
          name: "submit_review",
          description: "Submit the review",
          inputSchema: z.object({ body: z.string() }),
          run: () => Promise.resolve({ ok: true, output: "" }),
        } as never,
      ],
    });
    expect(result).toBe(RESULT);
    expect(seen).toEqual(EVENTS);
    const parsed = parseRecord(lines.join(""));
    expect(parsed[0]).toMatchObject({
      kind: "prompts",
      prompts: {
        system: "rules",
        context: "tree",
        task: "fix #1",
        tools: [{ name: "submit_review", inputSchema: { properties: { body: { type: "string" } } } }],
      },
    });
    expect(recordEvents(parsed)).toEqual(EVENTS);
  });
});
