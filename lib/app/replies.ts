/** Short replies the app posts; each says what happened and what to do next. */
import { commandUsage } from "../commands/index.ts";

export function helpText(): string {
  const lines = Object.values(commandUsage).map((usage) => `- ${usage}`);
  return ["**Locus commands** (write access needed for those that start work):", "", ...lines].join("\n");
}

export function usageReply(message: string): string {
  return `${message}\n\nSee \`/locus help\` for every command.`;
}
