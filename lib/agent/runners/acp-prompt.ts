/**
 * The one prompt an ACP agent gets: Locus's system, context and task parts
 * joined, then either the structured answer's instruction with its JSON Schema
 * or a note that there is no `finish` tool. Pure, apart from the runner so the
 * text can be read (and changed) without the protocol around it.
 */
import type { ExecuteOptions } from "../runner.ts";
import type { StructuredAnswer } from "./structured-answer.ts";

/** Locus's prompts name its own `finish` tool, which an ACP agent does not have. */
const NO_FINISH_TOOL =
  "You have no `finish` tool in this session: when you are done, end your turn with that summary as your last message.";

export function acpPromptText(execute: ExecuteOptions, answer: StructuredAnswer | undefined): string {
  const extra = answer
    ? `${answer.instruction}\n\nAnswer with that JSON object alone, following this JSON Schema:\n\n\`\`\`json\n${JSON.stringify(answer.jsonSchema)}\n\`\`\``
    : "";
  return [execute.prompt.system, execute.prompt.context, execute.prompt.task, extra || NO_FINISH_TOOL]
    .filter((part) => part.trim() !== "")
    .join("\n\n");
}
