/**
 * Every reply the app posts to a comment ends with a hidden marker naming the
 * comment it answers, `<!-- locus:reply-to:<comment id> -->`. When the app
 * asked GitHub to send a comment's event again (the delivery sweeper after a
 * restart), the marker is how it sees that the comment was already answered.
 * It goes last, like the status comment's state: a reply's first line stays
 * its own (a dashboard's marker, or the text a re-sent create compares).
 */

const REPLY_OPEN = "<!-- locus:reply-to:";
const REPLY_CLOSE = " -->";
/** The marker as a body's own last line; a GitHub comment id is a positive integer, written plainly. */
const LAST_LINE = /(?:^|\n)<!-- locus:reply-to:([1-9][0-9]*) -->\s*$/;

export function replyMarker(commentId: number): string {
  if (!Number.isSafeInteger(commentId) || commentId <= 0) {
    throw new Error(`A reply marker names a comment id, a positive integer; got ${commentId}`);
  }
  return `${REPLY_OPEN}${commentId}${REPLY_CLOSE}`;
}

/** The reply's text with its marker as the last line. */
export function renderReply(commentId: number, text: string): string {
  return `${text}\n${replyMarker(commentId)}`;
}

/**
 * The id of the comment a body answers, or undefined when the body does not
 * end with a reply marker line: one quoted (`> <!-- … -->`), inline or
 * followed by more text names nothing.
 */
export function repliedCommentId(body: string): number | undefined {
  const match = LAST_LINE.exec(body);
  if (!match?.[1]) return undefined;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : undefined;
}
