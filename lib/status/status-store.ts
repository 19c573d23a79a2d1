/**
 * The one status comment per issue, read and written through the gateway.
 * Both the app and the Action use it: the app to record the deliveries it
 * dispatched, the Action to show progress and count attempts.
 */
import { isLocus } from "../github/locus-identity.ts";
import {
  MomentWriteError,
  type Comment,
  type CommentPort,
  type MomentWrites,
  type MomentResult,
  type MomentWrite,
} from "../github/index.ts";
import { hiddenMarker } from "../markers.ts";
import {
  EMPTY_STATE,
  STATUS_MARKER,
  readStatusState,
  renderStatusComment,
  type StatusState,
  type StatusView,
} from "./status-comment.ts";

/** What reading the status comment needs: the comment found by its marker. */
export type StatusReads = Pick<CommentPort, "findCommentByMarker">;

/** What writing it needs: a new comment, an edit, or an edit batched with label sets. */
export type StatusWrites = Pick<CommentPort, "createComment" | "updateComment" | "upsertComment"> &
  MomentWrites;

export interface StatusRecord {
  readonly comment: Comment | null;
  readonly state: StatusState;
}

export async function readStatusRecord(gateway: StatusReads, issue: number): Promise<StatusRecord> {
  const comment = await gateway.findCommentByMarker(issue, STATUS_MARKER);
  return { comment, state: comment ? readStatusState(comment.body) : EMPTY_STATE };
}

export async function readStatus(gateway: StatusReads, issue: number): Promise<StatusState> {
  return (await readStatusRecord(gateway, issue)).state;
}

/**
 * The status record among comments already read (a task's one read holds them
 * all): the first one Locus wrote. A status comment anyone else wrote is
 * ignored, so nobody can forge attempts, deliveries or a run link.
 */
export function statusRecordIn(comments: readonly Comment[], self: readonly string[]): StatusRecord {
  const comment =
    comments.find((c) => c.body.startsWith(hiddenMarker("status")) && isLocus(self, c.author)) ?? null;
  return { comment, state: comment ? readStatusState(comment.body) : EMPTY_STATE };
}

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

/**
 * Writes one issue's status comment again and again from a record already
 * read: the first write creates the comment when there is none, later ones
 * edit it; a write that would change nothing is skipped. Label sets given
 * alongside go out with the edit in one request (gateway.writeMoment).
 */
export function createStatusWriter(
  gateway: Pick<StatusWrites, "createComment" | "updateComment" | "writeMoment">,
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

/** When the status comment was last written, or null when the issue has none. */
export async function statusUpdatedAt(gateway: StatusReads, issue: number): Promise<string | null> {
  return (await gateway.findCommentByMarker(issue, STATUS_MARKER))?.updatedAt ?? null;
}

/**
 * Creates or edits the status comment; no write when nothing changed. With
 * the record already read, the comment is written without listing again.
 */
export async function writeStatus(
  gateway: Pick<StatusWrites, "createComment" | "updateComment" | "upsertComment">,
  issue: number,
  view: StatusView,
  state: StatusState,
  known?: StatusRecord,
): Promise<void> {
  if (!known) {
    await gateway.upsertComment(issue, STATUS_MARKER, renderStatusComment(view, state));
    return;
  }
  const body = `${hiddenMarker("status")}\n${renderStatusComment(view, state)}`;
  if (!known.comment) await gateway.createComment(issue, body);
  else if (known.comment.body.replace(/\r\n/g, "\n") !== body)
    await gateway.updateComment(known.comment.id, body);
}
