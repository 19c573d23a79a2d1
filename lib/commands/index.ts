export { commandNames, isCommandName } from "./command.ts";
export type { CommandName, LocusCommand, ParseResult } from "./command.ts";
export { formatCommand } from "./format.ts";
export { parseCommand } from "./parse.ts";
export { commandUsage } from "./usage.ts";
