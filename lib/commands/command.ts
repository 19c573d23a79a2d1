/** The verbs `/locus` understands, in the order `/locus help` lists them. */
export const commandNames = [
  "run",
  "iterate",
  "review",
  "fix-ci",
  "rebase",
  "plan",
  "approve",
  "ask",
  "answer",
  "order",
  "status",
  "help",
  "cancel",
] as const;

export type CommandName = (typeof commandNames)[number];

export type LocusCommand =
  /** `model` is the `model=<id>` option: a model for this task only, checked against the config by the caller. */
  | { readonly name: "run"; readonly model?: string }
  /** `note` is the rest of the command line after any `model=<id>`, trimmed; it may be empty. */
  | { readonly name: "iterate"; readonly note: string; readonly model?: string }
  | { readonly name: "review" }
  | { readonly name: "fix-ci" }
  | { readonly name: "rebase" }
  /** `goal` is never empty; it may span several lines. */
  | { readonly name: "plan"; readonly goal: string }
  /**
   * `sequence` lists 1-based plan positions and is always a permutation of
   * 1..sequence.length; the caller checks that length against the plan.
   * Absent means "in the plan's own order".
   */
  | { readonly name: "approve"; readonly sequence?: number[] }
  /** `question` is never empty; it may span several lines. */
  | { readonly name: "ask"; readonly question: string }
  /** `text` is never empty; it may span several lines. It answers the question a waiting task asked. */
  | { readonly name: "answer"; readonly text: string }
  /** `issues` is never empty and holds no duplicates. */
  | { readonly name: "order"; readonly issues: number[] }
  | { readonly name: "status" }
  | { readonly name: "help" }
  | { readonly name: "cancel" };

export type ParseResult =
  /** Not a command: the app must make no write at all. */
  | { readonly kind: "none" }
  | { readonly kind: "command"; readonly command: LocusCommand; readonly notes: string[] }
  /** `verb` is set when the error concerns a known command's arguments. */
  | { readonly kind: "error"; readonly verb?: CommandName; readonly message: string };

export function isCommandName(word: string): word is CommandName {
  return (commandNames as readonly string[]).includes(word);
}
