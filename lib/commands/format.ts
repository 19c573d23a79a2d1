import type { LocusCommand } from "./command.ts";
import { withModelOption } from "./model-option.ts";

/**
 * The canonical text of a command, as a user would write it; parsing it
 * gives the same command back. Multi-line goals and questions continue on
 * the lines after the command line.
 */
export function formatCommand(command: LocusCommand): string {
  switch (command.name) {
    case "run":
      return withArgument("/locus run", withModelOption(command.model, ""));
    case "review":
    case "fix-ci":
    case "rebase":
    case "status":
    case "help":
    case "cancel":
      return `/locus ${command.name}`;
    case "iterate":
      return withArgument("/locus iterate", withModelOption(command.model, command.note));
    case "plan":
      return withArgument("/locus plan", command.goal);
    case "ask":
      return withArgument("/locus ask", command.question);
    case "answer":
      return withArgument("/locus answer", command.text);
    case "approve":
      return withArgument("/locus approve", command.sequence?.join(",") ?? "");
    case "order":
      return withArgument("/locus order", command.issues.join(" "));
  }
}

function withArgument(prefix: string, argument: string): string {
  return argument === "" ? prefix : `${prefix} ${argument}`;
}
