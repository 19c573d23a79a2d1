/**
 * A run's final structured answer (the JSON a task's tool takes) handed to
 * that tool and reported like a call of it. Shared by the CLI and ACP
 * runners, whose agents answer in text rather than by calling the tool.
 */
import { answerValue, recordAnswer, type StructuredAnswer } from "./structured-answer.ts";
import type { ParsedEnd, RunTally } from "./cli-spec.ts";

/** A finished run's final answer handed to the task's tool, reported like a call of it; an invalid one fails the run unless the tool's answer is optional. */
export async function takeAnswer(
  answer: StructuredAnswer,
  end: ParsedEnd,
  tally: RunTally,
  cwd: string,
  signal: AbortSignal,
  now: () => number,
): Promise<ParsedEnd> {
  const started = now();
  const id = `answer-${answer.tool.name}`;
  const params = { answer: "final structured output" };
  tally.emit({ type: "tool_started", id, tool: answer.tool.name, params });
  const recorded = await recordAnswer(answer, answerValue(end.structured, end.summary), {
    cwd,
    signal,
    // The task's tools only record their input: no shell, no files, no environment.
    shell: { allow: [], deny: ["*"], timeoutSeconds: 1 },
    hooks: [],
    env: {},
    onQuestion: () => undefined,
  });
  const summary = recorded.ok ? recorded.summary : recorded.error;
  tally.tool({ name: answer.tool.name, target: "", ok: recorded.ok, summary });
  tally.emit({
    type: "tool_completed",
    id,
    tool: answer.tool.name,
    duration: now() - started,
    ok: recorded.ok,
    summary,
  });
  if (recorded.ok) return { ...end, summary: recorded.summary };
  if (answer.tool.optionalAnswer) {
    // The task copes without this answer (iterate leaves every thread open): said, not fatal.
    tally.emit({
      type: "warning",
      message: `the agent gave no \`${answer.tool.name}\` answer: ${recorded.error}`,
    });
    return end;
  }
  return { ...end, success: false, stop: "failed", summary: "", error: recorded.error };
}
