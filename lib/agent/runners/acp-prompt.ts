/**
 * The one prompt an ACP agent gets: Locus's system, context and task parts
 * joined, then either the structured answer's instruction with its JSON Schema
 * or a note that there is no `finish` tool, and the images. Pure, apart
 * from the runner so the prompt can be read (and changed) without the protocol around it.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ExecuteOptions } from "../runner.ts";
import type { StructuredAnswer } from "./structured-answer.ts";
import { listed } from "../prompt-images.ts";

/** Locus's prompts name its own `finish` tool, which an ACP agent does not have. */
const NO_FINISH_TOOL =
  "You have no `finish` tool in this session: when you are done, end your turn with that summary as your last message.";

function acpPromptText(execute: ExecuteOptions, answer: StructuredAnswer | undefined): string {
  const extra = answer
    ? `${answer.instruction}\n\nAnswer with that JSON object alone, following this JSON Schema:\n\n\`\`\`json\n${JSON.stringify(answer.jsonSchema)}\n\`\`\``
    : "";
  return [execute.prompt.system, execute.prompt.context, execute.prompt.task, extra || NO_FINISH_TOOL]
    .filter((part) => part.trim() !== "")
    .join("\n\n");
}

/**
 * The prompt's content blocks: the text, then the images as ACP image blocks when the agent
 * said it takes them (`promptCapabilities.image` in its `initialize` answer); an agent that does
 * not is told which images it is not shown, so it does not take a missing picture for a missing detail.
 */
export function acpPrompt(
  execute: ExecuteOptions,
  answer: StructuredAnswer | undefined,
  takesImages: boolean,
): acp.ContentBlock[] {
  const text = acpPromptText(execute, answer);
  const images = execute.prompt.images ?? [];
  if (images.length === 0) return [{ type: "text", text }];
  const names = listed(images, (image) => image.name);
  if (!takesImages) {
    const note = `## Images\n\nThe issue has images you cannot be shown (this agent takes no images in a prompt):\n\n${names}`;
    return [{ type: "text", text: `${text}\n\n${note}` }];
  }
  const note = `## Images\n\nThe issue's images follow this text, in this order:\n\n${names}`;
  return [
    { type: "text", text: `${text}\n\n${note}` },
    ...images.map((image): acp.ContentBlock => ({
      type: "image",
      mimeType: image.mediaType,
      data: Buffer.from(image.bytes).toString("base64"),
    })),
  ];
}
