/**
 * The built-in agent: a streaming tool loop on the Messages API.
 *
 * Why not the SDK's `client.beta.messages.toolRunner`: it runs on the beta API over a message
 * thread and retries through the client's own retry policy, while Locus needs (a) its own retry
 * rule — 1-2-4-8-16 s, at most 5, with an injectable clock, and a stream cut mid-answer retried
 * with the partial text kept for the log; (b) cache breakpoints that move every turn and a
 * two-tier trim that rewrites old tool results in batches; (c) tools run with Locus's
 * ToolContext and turn, time and dollar limits checked between turns. Driving all of that through
 * `setMessagesParams` on every iteration would leave the helper doing nothing but the HTTP call,
 * which `client.messages.stream` already does.
 *
 * A turn: trim the context if due, place cache breakpoints, stream the answer (retrying
 * transient failures), count usage and cost, then run the tool calls in order. The task ends at a
 * `finish` call (its summary), at a turn without tool calls (its text), after a turn that asked
 * the people behind the task a question (`ask_user`: the task waits for the answer), or at a limit.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { ModelClient } from "./model-client.ts";
import type { ConversationMessage } from "./conversation.ts";
import { withCacheBreakpoints } from "./cache-breakpoints.ts";
import { taskBlocks } from "./prompt-images.ts";
import { trimContext, type TrimPolicy } from "./context-trim.ts";
import type { AgentEvent } from "./events.ts";
import { costLimitMessage, maxTurnsMessage, timeLimitMessage } from "./limit-messages.ts";
import { costUsd } from "./pricing.ts";
import { requestWithRetries, type Sleep } from "./request-with-retries.ts";
import { z } from "zod";
import type { ExecuteOptions, RunResult, StopReason, ThreadReport, ToolCallRecord } from "./runner.ts";
import { threadReportSchema } from "./tools/finish.ts";
import { streamTurn } from "./stream-turn.ts";
import type { AgentHook, ShellPolicy, ToolContext, ToolResult } from "./tool.ts";
import { addUsage, NO_USAGE, usageFromApi, type Usage } from "./usage.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";

/** The tools offered to the model and the way to run one (the registry, in production). */
export interface Toolbox {
  readonly definitions: readonly Anthropic.Tool[];
  run(name: string, input: unknown, context: ToolContext): Promise<ToolResult>;
}

export interface LoopDependencies {
  readonly client: ModelClient;
  readonly toolbox: Toolbox;
  readonly shell: ShellPolicy;
  readonly hooks: readonly AgentHook[];
  /** Environment for tools' child processes, already stripped of secrets. */
  readonly env: Readonly<Record<string, string>>;
  /** Where the tools' commands run. */
  readonly sandbox?: Sandbox;
  readonly maxTokens: number;
  readonly trim: TrimPolicy;
  readonly sleep: Sleep;
  readonly now: () => number;
}

const FINISH_TOOL = "finish";

function targetOf(input: unknown): string {
  if (typeof input !== "object" || input === null) return "";
  const fields = input as Record<string, unknown>;
  for (const key of ["path", "command", "pattern", "question", "glob"]) {
    if (typeof fields[key] === "string") return fields[key];
  }
  return "";
}

/** The answer as it goes back into the conversation: empty text blocks are refused by the API. */
function asParams(content: readonly Anthropic.ContentBlock[]): Anthropic.ContentBlockParam[] {
  return content.flatMap((block): Anthropic.ContentBlockParam[] => {
    if (block.type === "text") return block.text === "" ? [] : [{ type: "text", text: block.text }];
    if (block.type === "tool_use")
      return [{ type: "tool_use", id: block.id, name: block.name, input: block.input }];
    if (block.type === "thinking") {
      return [{ type: "thinking", thinking: block.thinking, signature: block.signature }];
    }
    if (block.type === "redacted_thinking") return [{ type: "redacted_thinking", data: block.data }];
    // Server-tool blocks never occur: Locus offers only client tools.
    return [];
  });
}

export async function runAgentLoop(deps: LoopDependencies, options: ExecuteOptions): Promise<RunResult> {
  const { model, maxTurns, maxCostUsd, timeLimitMs } = options;
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const started = deps.now();
  const controller = new AbortController();
  const onAbort = () => controller.abort("aborted");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  // Also stops a request or a shell command in flight when the wall-clock limit passes.
  const timer =
    timeLimitMs === undefined
      ? undefined
      : setTimeout(() => controller.abort("time_limit"), timeLimitMs).unref();

  let usage: Usage = NO_USAGE;
  let cost = 0;
  let turns = 0;
  const toolCalls: ToolCallRecord[] = [];
  const files = new Set<string>();
  const questions: string[] = [];
  const summaries = new Map<string, string>();
  const priced = costUsd(model, NO_USAGE, options.prices) !== undefined;

  function end(
    stop: StopReason,
    summary: string,
    error?: { message: string; retryable: boolean },
    threads?: readonly ThreadReport[],
  ): RunResult {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    if (error) emit({ type: "error", message: error.message, retryable: error.retryable });
    const success = error === undefined;
    const tokens = usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
    emit({
      type: "done",
      success,
      stats: { duration: deps.now() - started, turns, tools: toolCalls.length, tokens, costUsd: cost },
    });
    return {
      success,
      summary,
      ...(error ? { error: error.message } : {}),
      stop,
      turns,
      usage,
      costUsd: cost,
      toolCalls,
      filesChanged: [...files],
      questions,
      ...(threads ? { threads } : {}),
    };
  }

  function stopped(): RunResult {
    return controller.signal.reason === "time_limit"
      ? end("time_limit", "", {
          message: timeLimitMessage(timeLimitMs ?? 0),
          retryable: false,
        })
      : end("aborted", "", { message: "aborted", retryable: false });
  }

  emit({ type: "start", runner: "builtin", model, timestamp: new Date(started).toISOString() });
  if (!priced) {
    emit({
      type: "warning",
      message: `no price known for model ${model}: cost is reported as 0 and no cost limit is enforced`,
    });
  }

  const system: Anthropic.TextBlockParam[] = [options.prompt.system, options.prompt.context]
    .filter((text) => text.trim() !== "")
    .map((text) => ({ type: "text", text }));
  const messages: ConversationMessage[] = [
    { role: "user", content: taskBlocks(options.prompt.task, options.prompt.images ?? []) },
  ];
  const context: ToolContext = {
    cwd: options.cwd,
    signal: controller.signal,
    shell: deps.shell,
    hooks: deps.hooks,
    env: deps.env,
    ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
    onQuestion: (question) => questions.push(question),
  };

  for (;;) {
    if (controller.signal.aborted) return stopped();
    if (turns >= maxTurns) {
      return end("max_turns", "", {
        message: maxTurnsMessage(maxTurns),
        retryable: false,
      });
    }
    if (timeLimitMs !== undefined && deps.now() - started >= timeLimitMs) {
      controller.abort("time_limit");
      return stopped();
    }

    trimContext(messages, summaries, deps.trim);
    const prompt = withCacheBreakpoints(deps.toolbox.definitions, system, messages);
    const outcome = await requestWithRetries(
      () =>
        streamTurn(
          deps.client,
          {
            model,
            max_tokens: deps.maxTokens,
            tools: prompt.tools,
            system: prompt.system,
            messages: prompt.messages,
          },
          controller.signal,
          (content) => emit({ type: "text_delta", content }),
        ),
      { signal: controller.signal, sleep: deps.sleep, onEvent: emit },
    );
    if (!outcome.ok) {
      if (outcome.failure.kind === "aborted" || controller.signal.aborted) return stopped();
      return end("api_error", "", { message: outcome.failure.message, retryable: outcome.failure.retryable });
    }

    turns += 1;
    const message = outcome.message;
    const turnUsage = usageFromApi(message.usage);
    usage = addUsage(usage, turnUsage);
    const turnCost = costUsd(model, turnUsage, options.prices) ?? 0;
    cost += turnCost;
    emit({ type: "turn", turn: turns, usage: turnUsage, costUsd: turnCost });

    const content = asParams(message.content);
    const toolUses = message.content.filter((block) => block.type === "tool_use");
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    if (toolUses.length === 0) return end("end_turn", text.trim());
    const finishing = toolUses.some((block) => block.name === FINISH_TOOL);
    if (!finishing && priced && maxCostUsd !== undefined && cost >= maxCostUsd) {
      return end("cost_limit", "", {
        message: costLimitMessage(cost, maxCostUsd),
        retryable: false,
      });
    }
    messages.push({ role: "assistant", content });

    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const call of toolUses) {
      if (controller.signal.aborted) return stopped();
      emit({
        type: "tool_started",
        id: call.id,
        tool: call.name,
        params: call.input as Record<string, unknown>,
      });
      if (call.name === FINISH_TOOL) {
        const input = call.input as { summary?: unknown; threads?: unknown };
        const summary = typeof input.summary === "string" ? input.summary : text.trim();
        // A malformed report counts as no report: no thread is then claimed addressed.
        const threads = z.array(threadReportSchema).safeParse(input.threads);
        toolCalls.push({ name: call.name, target: "", ok: true, summary: "Finished" });
        emit({
          type: "tool_completed",
          id: call.id,
          tool: call.name,
          duration: 0,
          ok: true,
          summary: "Finished",
        });
        return end("finished", summary, undefined, threads.success ? threads.data : undefined);
      }
      const toolStarted = deps.now();
      // Tools report their own failures; a throw here is a bug in one, reported to the model the same way.
      const result = await deps.toolbox
        .run(call.name, call.input, context)
        .catch((error: unknown): ToolResult => ({
          content: `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`,
          isError: true,
          summary: `${call.name} failed`,
        }));
      if (controller.signal.aborted) return stopped();
      emit({
        type: "tool_completed",
        id: call.id,
        tool: call.name,
        duration: deps.now() - toolStarted,
        ok: !result.isError,
        summary: result.summary,
        ...(result.diff === undefined ? {} : { diff: result.diff }),
      });
      toolCalls.push({
        name: call.name,
        target: targetOf(call.input),
        ok: !result.isError,
        summary: result.summary,
      });
      for (const file of result.filesWritten ?? []) files.add(file);
      summaries.set(call.id, result.summary);
      results.push({
        type: "tool_result",
        tool_use_id: call.id,
        content: result.content === "" ? "(no output)" : result.content,
        ...(result.isError ? { is_error: true } : {}),
      });
    }
    // The questions of this turn go out together; nothing more is done until someone answers.
    if (questions.length > 0) return end("asked", text.trim());
    messages.push({ role: "user", content: results });
  }
}
