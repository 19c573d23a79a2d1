/** The one status comment per issue (lib/status), read and written through the gateway's sticky-comment upsert. */
import type { GitHubGateway } from "../github/index.ts";
import {
  STATUS_MARKER,
  readStatusState,
  renderStatusComment,
  type StatusState,
  type StatusView,
} from "../status/status-comment.ts";

export async function readStatus(gateway: GitHubGateway, issue: number): Promise<StatusState> {
  const comment = await gateway.findCommentByMarker(issue, STATUS_MARKER);
  return readStatusState(comment?.body);
}

/** When the status comment was last written, or null when the issue has none. */
export async function statusUpdatedAt(gateway: GitHubGateway, issue: number): Promise<string | null> {
  return (await gateway.findCommentByMarker(issue, STATUS_MARKER))?.updatedAt ?? null;
}

export async function writeStatus(
  gateway: GitHubGateway,
  issue: number,
  view: StatusView,
  state: StatusState,
): Promise<void> {
  await gateway.upsertComment(issue, STATUS_MARKER, renderStatusComment(view, state));
}
