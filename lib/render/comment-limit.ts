/**
 * GitHub refuses a comment, review or issue body over 65,536 characters.
 * Locus cuts its own markdown explicitly, at a line boundary, and says so.
 */
export const GITHUB_BODY_LIMIT = 65_536;

/** `text` itself when it fits; else its head cut at a line boundary plus a visible note, within `limit`. */
export function fitBody(text: string, limit = GITHUB_BODY_LIMIT): string {
  if (text.length <= limit) return text;
  const note = (omitted: number) =>
    `\n\n*[… truncated: ${omitted} characters omitted to fit GitHub's limit]*`;
  // Room for the note and for a fence closed after the cut.
  const room = limit - note(text.length).length - 32;
  const cut = text.lastIndexOf("\n", room);
  const head = text.slice(0, cut > 0 ? cut : room);
  return `${closeOpenFence(head)}${note(text.length - head.length)}`;
}

/** A cut inside a fenced block would swallow the note; close the fence first. */
function closeOpenFence(text: string): string {
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) continue;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length) open = undefined;
  }
  return open === undefined ? text : `${text}\n${open}`;
}
