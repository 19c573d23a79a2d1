/**
 * Text Locus publishes on someone else's behalf (the agent's summaries and
 * answers, a reviewer's words quoted back) must not act on GitHub: an
 * `@name` or `@org/team` would notify people, `Fixes #12` or
 * `closes owner/repo#3` would close another issue when the PR merges, and an
 * image from outside GitHub is fetched by GitHub's image proxy when anyone
 * views the page — a channel out for whatever its URL carries. So mentions
 * are defused with an invisible word joiner, closing keywords are broken the
 * same way, and such images are replaced by a short note. Code spans and
 * fenced blocks are left as they are: GitHub neither links nor renders
 * inside them. The task's own `Closes #N` is written by Locus's template,
 * outside this text.
 */

/** U+2060 WORD JOINER: invisible, and it splits a word GitHub would otherwise match. */
const JOINER = "\u2060";

const MENTION = /(^|[^\w`@./-])@([A-Za-z0-9][A-Za-z0-9-]{0,38}(?:\/[A-Za-z0-9][\w.-]*)?)/g;
const CLOSING =
  /\b(clos(?:e|es|ed)|fix(?:es|ed)?|resolv(?:e|es|ed))(\s*:?\s*)(?=(?:[\w.-]+\/[\w.-]+)?#\d|https?:\/\/\S+\/(?:issues|pull)\/\d)/gi;
const GITHUB_IMAGE_HOST =
  /^(?:github\.com|[\w-]+\.githubusercontent\.com|github\.githubassets\.com|user-images\.githubusercontent\.com)$/i;

/** Whether an image at this URL is served by GitHub itself (so viewing it reaches nobody else). */
export function isGitHubImage(url: string): boolean {
  const trimmed = url.trim().replace(/^<|>$/g, "");
  if (!/^https:\/\//i.test(trimmed)) return false;
  try {
    return GITHUB_IMAGE_HOST.test(new URL(trimmed).hostname);
  } catch {
    return false;
  }
}

function defuseProse(text: string): string {
  return text
    .replace(MENTION, (_m, before: string, name: string) => `${before}@${JOINER}${name}`)
    .replace(
      CLOSING,
      (_m, keyword: string, gap: string) => `${keyword.slice(0, 1)}${JOINER}${keyword.slice(1)}${gap}`,
    )
    .replace(
      /!\[([^\]\n]*)\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\)/g,
      (image, alt: string, url: string) =>
        isGitHubImage(url) ? image : `[image removed${alt.trim() ? `: ${alt.trim()}` : ""}]`,
    )
    .replace(
      /!\[([^\]\n]*)\]\[[^\]\n]*\]/g,
      (_m, alt: string) => `[image removed${alt.trim() ? `: ${alt.trim()}` : ""}]`,
    )
    .replace(/<(?:img|image|video|audio|source|picture|object|embed|iframe)\b[^>]*>/gi, (tag) => {
      const src = /\b(?:src|srcset|poster|data)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
      const url = src?.[1] ?? src?.[2] ?? src?.[3] ?? "";
      return url && isGitHubImage(url.split(/\s/)[0] ?? "") && !/^<(?:iframe|object|embed)/i.test(tag)
        ? tag
        : "[image removed]";
    });
}

/** Splits off fenced code blocks and inline code spans, which GitHub shows literally. */
function segments(text: string): Array<{ code: boolean; text: string }> {
  const pattern =
    /(^|\n)( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\3[`~]*[ \t]*(?=\n|$)|$)|(`+)(?!`)[\s\S]*?[^`]\4(?!`)/g;
  const parts: Array<{ code: boolean; text: string }> = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index + (match[1]?.length ?? 0);
    if (start > last) parts.push({ code: false, text: text.slice(last, start) });
    parts.push({ code: true, text: text.slice(start, match.index + match[0].length) });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ code: false, text: text.slice(last) });
  return parts;
}

/** The text with mentions and closing keywords defused and non-GitHub images removed, code left alone. */
export function safeToPublish(text: string): string {
  return segments(text)
    .map((part) => (part.code ? part.text : defuseProse(part.text)))
    .join("");
}
