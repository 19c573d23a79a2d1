/**
 * One streamed model turn through the SDK. Text deltas are passed on as they arrive; if the
 * stream fails, the text received so far travels with the error so the log keeps it.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { ModelClient } from "./model-client.ts";

export class TurnError extends Error {
  readonly partialText: string;

  constructor(cause: unknown, partialText: string) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "TurnError";
    this.partialText = partialText;
  }
}

export async function streamTurn(
  client: ModelClient,
  params: Anthropic.MessageCreateParamsNonStreaming,
  signal: AbortSignal,
  onText: (delta: string) => void,
): Promise<Anthropic.Message> {
  let partial = "";
  const stream = client.messages.stream(params, { signal });
  stream.on("text", (delta) => {
    partial += delta;
    onText(delta);
  });
  try {
    return await stream.finalMessage();
  } catch (error) {
    throw new TurnError(error, partial);
  }
}
