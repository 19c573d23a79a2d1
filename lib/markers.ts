/**
 * Every hidden marker Locus writes on GitHub, with its parser, in one place.
 * Locus keeps its state on GitHub and finds its own comments, bodies and
 * records again by HTML comments nobody sees: `<!-- locus:name -->`, or
 * `<!-- locus:name value -->` when the marker carries data. The formats are a
 * contract with every comment already posted, so they never change; a new
 * marker is added here and in docs/architecture.md ("Hidden markers"), which a
 * test keeps complete. Pure: no I/O, no imports.
 */

/** Each marker's name; where it is written and read is in docs/architecture.md. */
export const MARKER_NAMES = [
  "status",
  "state",
  "reply-to",
  "question",
  "config-error",
  "retry-exhausted",
  "pr",
  "sprint",
  "sprint-state",
  "plan-comment",
  "plan",
  "plan-approved",
  "planned",
  "answer",
  "review",
  "finding",
] as const;

export type MarkerName = (typeof MARKER_NAMES)[number];

const LOCUS_OPEN = "<!-- locus:";

/** How every marker value ends. */
export const MARKER_CLOSE = " -->";

/** A marker, alone (`<!-- locus:review -->`) or carrying a value (`<!-- locus:pr issue=12 -->`). */
export function hiddenMarker(name: MarkerName, value?: string): string {
  return value === undefined ? `${LOCUS_OPEN}${name} -->` : `${markerOpen(name)}${value}${MARKER_CLOSE}`;
}

/** The key of a sticky comment whose first line is the marker (the gateway's `upsertComment`, `findCommentByMarker`). */
export function markerKey(name: MarkerName): `locus:${MarkerName}` {
  return `locus:${name}`;
}

/** What precedes a marker's value: `<!-- locus:state `. */
export function markerOpen(name: MarkerName): string {
  return `${LOCUS_OPEN}${name} `;
}

/**
 * A value as JSON that cannot end the HTML comment it sits in: every `<` and `>` inside strings is
 * escaped, so neither `-->` nor `--!>` (which also ends a comment in HTML) nor a tag appears.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>]/g, (c) => (c === "<" ? "\\u003c" : "\\u003e"));
}

/** The value of the first `name` marker in the body, or undefined when there is none. */
export function markerValue(body: string, name: MarkerName): string | undefined {
  const open = markerOpen(name);
  const start = body.indexOf(open);
  if (start < 0) return undefined;
  const end = body.indexOf(MARKER_CLOSE, start + open.length);
  return end < 0 ? undefined : body.slice(start + open.length, end);
}

/** The first `name` marker's value read as JSON; undefined when there is none or it is not JSON. */
export function markerJson(body: string, name: MarkerName): unknown {
  const value = markerValue(body, name);
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** The body without its `name` markers (each with the line break before it). */
export function withoutMarker(body: string, name: MarkerName): string {
  const open = markerOpen(name).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return body.replace(new RegExp(`\\n?${open}[^\\n]*?${MARKER_CLOSE}`, "g"), "");
}

/** Whether the body starts with any Locus marker: Locus's own bookkeeping, not words for a prompt. */
export function isLocusMarked(body: string): boolean {
  return body.trimStart().startsWith(LOCUS_OPEN);
}

/**
 * The reply marker, `<!-- locus:reply-to:<comment id> -->`: the last line of every reply
 * the app posts to a comment (the one marker whose value follows a colon, not a space).
 */
export function replyMarker(commentId: number): string {
  if (!Number.isSafeInteger(commentId) || commentId <= 0) {
    throw new Error(`A reply marker names a comment id, a positive integer; got ${commentId}`);
  }
  return `${LOCUS_OPEN}reply-to:${commentId}${MARKER_CLOSE}`;
}

/** The marker as a body's own last line; a GitHub comment id is a positive integer, written plainly. */
const REPLY_LAST_LINE = /(?:^|\n)<!-- locus:reply-to:([1-9][0-9]*) -->\s*$/;

/**
 * The id of the comment a body answers, or undefined when the body does not
 * end with a reply marker line: one quoted (`> <!-- … -->`), inline or
 * followed by more text names nothing.
 */
export function repliedCommentId(body: string): number | undefined {
  const match = REPLY_LAST_LINE.exec(body);
  if (!match?.[1]) return undefined;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : undefined;
}
