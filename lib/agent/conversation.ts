import type Anthropic from "@anthropic-ai/sdk";

/** A message of the loop's conversation: the task, the model's turns and the tool results. */
export type ConversationMessage =
  Anthropic.Messages.UserMessageParam | Anthropic.Messages.AssistantMessageParam;
