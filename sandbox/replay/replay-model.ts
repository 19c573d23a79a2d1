/**
 * The offline model: the Anthropic fake answering every request from the
 * recorded transcript whose task the conversation is about. The turn is the
 * number of assistant messages so far, the attempt is counted per transcript
 * (a conversation with no assistant message yet starts a new one), so runs in
 * separate processes, retries and parallel tasks all replay correctly.
 */
import { reply, say } from "../anthropic-fake/script.ts";
import { startAnthropicFake, type AnthropicFake } from "../anthropic-fake/server.ts";
import type { FakeReply, FakeTurn, RecordedRequest } from "../anthropic-fake/types.ts";
import { REPLAY_NOTICE, type Transcript } from "./transcripts.ts";

export interface ReplayModel {
  readonly url: string;
  readonly fake: AnthropicFake;
  /** Attempts started per transcript name. */
  readonly attempts: ReadonlyMap<string, number>;
  /** Runs `hook` when a conversation of `transcript` reaches `turn` (0-based), before answering it. */
  onTurn(transcript: string, turn: number, hook: () => void): void;
  close(): Promise<void>;
}

// The fake plays one scripted turn per request; the replay's single turn function answers them all.
const SCRIPT_LENGTH = 100_000;

interface MessageParam {
  role?: unknown;
  content?: unknown;
}

function messagesOf(request: RecordedRequest): MessageParam[] {
  const body = request.body as { messages?: unknown } | undefined;
  return Array.isArray(body?.messages) ? (body.messages as MessageParam[]) : [];
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) => {
      const text = (block as { text?: unknown }).text;
      return typeof text === "string" ? text : "";
    })
    .join("\n");
}

export async function startReplayModel(transcripts: readonly Transcript[]): Promise<ReplayModel> {
  const attempts = new Map<string, number>();
  const hooks = new Map<string, () => void>();

  const unknownTask: FakeReply = reply(
    say(
      `${REPLAY_NOTICE} It has no recorded transcript for this task, so it changes nothing. Set ANTHROPIC_API_KEY to use a real model.`,
    ),
  );

  const turn: FakeTurn = (request) => {
    const messages = messagesOf(request);
    const transcript = transcripts.find((candidate) => candidate.matches(textOf(messages[0]?.content)));
    if (!transcript) return unknownTask;
    const index = messages.filter((message) => message.role === "assistant").length;
    if (index === 0) attempts.set(transcript.name, (attempts.get(transcript.name) ?? 0) + 1);
    const attempt = Math.max(1, attempts.get(transcript.name) ?? 1);
    const steps = transcript.attempts[Math.min(attempt, transcript.attempts.length) - 1] ?? [];
    const hook = hooks.get(`${transcript.name}#${index}`);
    if (hook) {
      hooks.delete(`${transcript.name}#${index}`);
      hook();
    }
    return steps[index] ?? reply(say("The recorded transcript ends here."));
  };

  const fake = await startAnthropicFake({ script: new Array<FakeTurn>(SCRIPT_LENGTH).fill(turn) });
  return {
    url: fake.url,
    fake,
    attempts,
    onTurn(transcript, index, hook) {
      hooks.set(`${transcript}#${index}`, hook);
    },
    close: () => fake.close(),
  };
}
