/**
 * Config `agent.acp.command` as a program and its arguments. A string is split on whitespace
 * with no shell (no quoting, no variables, no globbing), so the config cannot smuggle a second
 * command in; a list gives each argument as is, for arguments with spaces.
 */
export interface CommandLine {
  readonly executable: string;
  readonly args: readonly string[];
}

export function acpCommandLine(command: string | readonly string[] | undefined): CommandLine | undefined {
  const words = typeof command === "string" ? command.trim().split(/\s+/) : [...(command ?? [])];
  const [executable, ...args] = words.filter((word) => word !== "");
  return executable === undefined ? undefined : { executable, args };
}
