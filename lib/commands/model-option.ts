/**
 * The `model=<id>` option of `/locus run` and `/locus iterate`: a model for this
 * one task. Only the shape is checked here; whether the repository allows the
 * model is `lib/cost/model-choice.ts`'s rule.
 */
import { inlineCode } from "./inline-code.ts";

// Provider model ids: letters, digits and `.-_:@/` (Bedrock and Vertex ids use `:` and `@`).
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,99}$/;

export type ModelOption =
  | { readonly ok: true; readonly model?: string; readonly rest: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Splits a leading `model=<id>` token (key in any case) off `argument`, which is
 * already trimmed; `rest` is what follows it, trimmed.
 */
export function takeModelOption(argument: string): ModelOption {
  const tokenEnd = argument.search(/\s/);
  const token = tokenEnd === -1 ? argument : argument.slice(0, tokenEnd);
  if (!/^model=/i.test(token)) return { ok: true, rest: argument };
  const id = token.slice("model=".length);
  const rest = tokenEnd === -1 ? "" : argument.slice(tokenEnd).trim();
  if (id === "") return { ok: false, reason: "`model=` needs a model id, e.g. `model=claude-opus-4-5`" };
  if (!MODEL_ID.test(id)) {
    return {
      ok: false,
      reason: `${inlineCode(id)} is not a model id (letters, digits and \`.-_:@/\`, at most 100)`,
    };
  }
  return { ok: true, model: id, rest };
}

/** The text that carries a chosen model to the Action in the `command` input. */
export function withModelOption(model: string | undefined, rest: string): string {
  return model === undefined ? rest : `model=${model}${rest === "" ? "" : ` ${rest}`}`;
}

/**
 * The Action's reading of its `command` input for modes `issue` and `iterate`:
 * a leading `model=<id>` is the model chosen for this run (checked again
 * against config by the caller, since anyone with write access can dispatch by
 * hand) and the rest is the note. Other modes' commands are left as they are.
 */
export function modelFromCommand(
  mode: string,
  command: string,
): { readonly model?: string; readonly command: string } {
  if (mode !== "issue" && mode !== "iterate") return { command };
  const option = takeModelOption(command.trim());
  if (!option.ok || option.model === undefined) return { command };
  return { model: option.model, command: option.rest };
}
