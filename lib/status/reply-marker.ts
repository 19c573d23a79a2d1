/**
 * Every reply the app posts to a comment ends with a hidden marker naming the
 * comment it answers, `<!-- locus:reply-to:<comment id> -->`. When the app
 * asked GitHub to send a comment's event again (the delivery sweeper after a
 * restart), the marker is how it sees that the comment was already answered.
 * It goes last, like the status comment's state: a reply's first line stays
 * its own (a dashboard's marker, or the text a re-sent create compares).
 */
import { replyMarker } from "../markers.ts";

/** The reply's text with its marker as the last line. */
export function renderReply(commentId: number, text: string): string {
  return `${text}\n${replyMarker(commentId)}`;
}
