/**
 * The status comment's writer, driven only by the lifecycle's applier
 * (apply-effects.ts): one issue's status comment, its hidden state, and the
 * label sets that change at the same moment.
 */
import {
  MomentWriteError,
  type CommentPort,
  type MomentResult,
  type MomentWrite,
  type MomentWrites,
} from "../github/index.ts";
import { hiddenMarker } from "../markers.ts";
import { renderStatusComment, type StatusState, type StatusView } from "../status/status-comment.ts";
import type { StatusRecord } from "../status/status-store.ts";

/**
 * Writes one issue's status comment, its state, and (optionally) the label
 * sets that change at the same moment. The labels go first, as before.
 */
export type StatusWriter = (
  view: StatusView,
  state: StatusState,
  alongside?: readonly MomentWrite[],
) => Promise<MomentResult>;

const NOTHING_WRITTEN: MomentResult = { labels: new Map(), comments: new Map() };

/** What writing a status comment needs: a new comment, an edit, or either batched with label sets. */
export type StatusWrites = Pick<CommentPort, "createComment" | "updateComment"> & MomentWrites;

/**
 * Writes one issue's status comment again and again from a record already
 * read: the first write creates the comment when there is none, later ones
 * edit it; a write that would change nothing is skipped. Label sets given
 * alongside go out with the edit in one request (gateway.writeMoment).
 */
export function createStatusWriter(
  gateway: StatusWrites,
  subject: number | { readonly number: number; readonly nodeId?: string | undefined },
  record: StatusRecord,
): StatusWriter {
  const issue = typeof subject === "number" ? { number: subject } : subject;
  let comment = record.comment;
  return async (view, state, alongside = []) => {
    const body = `${hiddenMarker("status")}\n${renderStatusComment(view, state)}`;
    if (!comment) {
      if (alongside.length === 0) {
        comment = await gateway.createComment(issue.number, body);
        return NOTHING_WRITTEN;
      }
      try {
        const written = await gateway.writeMoment([
          ...alongside,
          { kind: "new-comment", number: issue.number, nodeId: issue.nodeId, body },
        ]);
        comment = written.comments.get(issue.number) ?? null;
        return written;
      } catch (error) {
        // The comment may have landed with the write that failed: edited from now on, never made twice.
        if (error instanceof MomentWriteError) comment = error.result.comments.get(issue.number) ?? null;
        throw error;
      }
    }
    const edit = comment.body.replace(/\r\n/g, "\n") !== body;
    if (alongside.length === 0) {
      if (edit) comment = await gateway.updateComment(comment.id, body);
      return NOTHING_WRITTEN;
    }
    const written = await gateway.writeMoment(
      edit ? [...alongside, { kind: "comment", comment, body }] : alongside,
    );
    if (edit) comment = { ...comment, body };
    return written;
  };
}
