/** Reading and writing an issue's one status comment through the gateway. */
import type { Comment, GitHubGateway } from "../github/index.ts";
import {
  EMPTY_STATE,
  STATUS_MARKER,
  readStatusState,
  renderStatusComment,
  type StatusState,
  type StatusView,
} from "../status/status-comment.ts";

export interface StatusRecord {
  readonly comment: Comment | null;
  readonly state: StatusState;
}

export async function readStatus(gateway: GitHubGateway, issue: number): Promise<StatusRecord> {
  const comment = await gateway.findCommentByMarker(issue, STATUS_MARKER);
  return { comment, state: comment ? readStatusState(comment.body) : EMPTY_STATE };
}

/** Creates or edits the status comment; no call when nothing changed. */
export async function writeStatus(
  gateway: GitHubGateway,
  issue: number,
  record: StatusRecord,
  view: StatusView,
  state: StatusState,
): Promise<void> {
  const body = `<!-- ${STATUS_MARKER} -->\n${renderStatusComment(view, state)}`;
  if (!record.comment) await gateway.createComment(issue, body);
  else if (record.comment.body.replace(/\r\n/g, "\n") !== body)
    await gateway.updateComment(record.comment.id, body);
}
