/**
 * The image URLs a piece of Markdown shows, in order and without repeats: Markdown images
 * (`![alt](url)`, with an optional title) and HTML `<img src>` tags, the form GitHub writes when
 * someone drops a screenshot into an issue or comment. Only the URLs are read here; whether one
 * may be fetched is attachment-hosts.ts's question, and the sanitiser still decides what the
 * text shows the model.
 */

/** `![alt](<url> "title")` or `![alt](url 'title')`: the URL is the first run without spaces. */
const MARKDOWN_IMAGE = /!\[[^\]\n]*\]\(\s*<?([^\s)<>]+)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
/** `<img … src="url" …>` in any letter case, quoted either way or not at all. */
const HTML_IMAGE = /<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))[^>]*>/gi;
/** Fenced code blocks and inline code show their text, never an image; an HTML comment shows nothing. */
const NOT_SHOWN = /(^|\n)(```|~~~)[^\n]*\n[\s\S]*?(?:\n\2[^\n]*(?=\n|$)|$)|`[^`\n]+`|<!--[\s\S]*?(?:-->|$)/g;

export function imageUrlsIn(markdown: string): string[] {
  const text = markdown.replace(NOT_SHOWN, (_match, lead: string | undefined) => lead ?? "");
  const found: { at: number; url: string }[] = [];
  for (const match of text.matchAll(MARKDOWN_IMAGE)) {
    if (match[1]) found.push({ at: match.index, url: match[1] });
  }
  for (const match of text.matchAll(HTML_IMAGE)) {
    const url = match[1] ?? match[2] ?? match[3];
    if (url) found.push({ at: match.index, url: decodeAmpersands(url.trim()) });
  }
  const urls = found.sort((a, b) => a.at - b.at).map((image) => image.url);
  return [...new Set(urls)];
}

/** An attribute's `&amp;` is a plain `&` in the URL it names. */
function decodeAmpersands(url: string): string {
  return url.replace(/&amp;/gi, "&");
}
