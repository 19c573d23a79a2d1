import type { ContentEdit } from "./model.ts";

interface Editable {
  createdAt: string;
  author: string;
  edits?: ContentEdit[];
}

/**
 * Records an edit of a body as GitHub's edit history does: the first edit also
 * keeps the text as created (`includesCreatedEdit`), and every revision holds
 * the whole text.
 */
export function recordEdit(
  target: Editable,
  previous: string | null,
  next: string | null,
  at: string,
  editor: string,
): void {
  const edits = target.edits ?? [{ editedAt: target.createdAt, editor: target.author, body: previous }];
  edits.push({ editedAt: at, editor, body: next });
  target.edits = edits;
}
