/**
 * What a body said when the run was triggered, recovered from GitHub's edit
 * history (docs/architecture.md "Prompt": only what existed at trigger time is used, so
 * an edit made after the trigger cannot smuggle in instructions). Pure.
 */
import type { EditHistory } from "../github/index.ts";

export type TextAtTrigger =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly why: string };

export function textAtTrigger(current: string, history: EditHistory, triggeredAt: Date): TextAtTrigger {
  const limit = triggeredAt.getTime();
  if (Date.parse(history.createdAt) > limit) return { ok: false, why: "it was written after the trigger" };
  if (history.lastEditedAt === null || Date.parse(history.lastEditedAt) <= limit) {
    return { ok: true, text: current };
  }
  // Revisions are oldest first; the one in force at the trigger is the newest not after it.
  const inForce = history.revisions.filter((revision) => Date.parse(revision.editedAt) <= limit).at(-1);
  if (!inForce) {
    return {
      ok: false,
      why: history.truncated
        ? "it was edited after the trigger and its earlier text is beyond the edit history GitHub returned"
        : "it was edited after the trigger and GitHub's edit history does not hold its earlier text",
    };
  }
  if (inForce.body === null) {
    return {
      ok: false,
      why: "it was edited after the trigger and its earlier text was deleted from the edit history",
    };
  }
  return { ok: true, text: inForce.body };
}

/** A comment, review or body with its times, and its edit history when the read brought one. */
export interface TimedText {
  readonly body: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly history?: EditHistory;
}

export type ItemAtTrigger<T> =
  | { readonly kind: "kept"; readonly item: T }
  | { readonly kind: "later" }
  | { readonly kind: "withheld"; readonly why: string };

/**
 * An item as it stood at the trigger: written later (not part of the run), its
 * text then (`updatedAt` no later than the trigger, so later rules see an
 * unedited item), or withheld with the reason. Without an edit history, an item
 * changed after the trigger cannot be read as it was.
 */
export function itemAtTrigger<T extends TimedText>(item: T, triggeredAt: Date): ItemAtTrigger<T> {
  const limit = triggeredAt.getTime();
  if (Date.parse(item.createdAt) > limit) return { kind: "later" };
  let text: TextAtTrigger;
  if (item.history) text = textAtTrigger(item.body, item.history, triggeredAt);
  else if (Date.parse(item.updatedAt) > limit) text = { ok: false, why: "it was edited after the trigger" };
  else text = { ok: true, text: item.body };
  if (!text.ok) return { kind: "withheld", why: text.why };
  const updatedAt = Date.parse(item.updatedAt) > limit ? triggeredAt.toISOString() : item.updatedAt;
  return { kind: "kept", item: { ...item, body: text.text, updatedAt } };
}
