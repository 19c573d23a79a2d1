/**
 * The one status comment per issue, read through the gateway. Both the app
 * and the Action read it: the app for the deliveries it dispatched, the
 * Action for its attempts and cost. Only the lifecycle writes it
 * (lib/lifecycle/status-writer.ts).
 */
import { isLocus } from "../github/locus-identity.ts";
import type { Comment, CommentPort } from "../github/index.ts";
import { hiddenMarker } from "../markers.ts";
import { EMPTY_STATE, STATUS_MARKER, readStatusState, type StatusState } from "./status-comment.ts";

/** What reading the status comment needs: the comment found by its marker. */
export type StatusReads = Pick<CommentPort, "findCommentByMarker">;

export interface StatusRecord {
  readonly comment: Comment | null;
  readonly state: StatusState;
}

export async function readStatusRecord(gateway: StatusReads, issue: number): Promise<StatusRecord> {
  const comment = await gateway.findCommentByMarker(issue, STATUS_MARKER);
  return { comment, state: comment ? readStatusState(comment.body) : EMPTY_STATE };
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

/** When the status comment was last written, or null when the issue has none. */
export async function statusUpdatedAt(gateway: StatusReads, issue: number): Promise<string | null> {
  return (await gateway.findCommentByMarker(issue, STATUS_MARKER))?.updatedAt ?? null;
}
