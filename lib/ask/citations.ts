/**
 * Citations in an answer become permalinks at the commit the agent read:
 * `src/a.ts:12`, `src/a.ts:12-20` and `src/a.ts#L12-L20` link to those lines,
 * a backticked `src/a.ts` to the file. Only paths that exist in that commit
 * are linked, so a mistaken path stays plain text instead of a broken link,
 * and nothing inside code blocks, inline code of other text, or existing
 * links is touched.
 */

export interface CitationTarget {
  /** `https://<server>/<owner>/<repo>/blob/<sha>` */
  readonly blobUrl: string;
  readonly files: ReadonlySet<string>;
}

const PATH = String.raw`[\w.-]+(?:/[\w.-]+)*`;
const LINES = String.raw`(?::(\d+)(?:-(\d+))?|#L(\d+)(?:-L?(\d+))?)`;
// A citation in backticks (the path alone, or with lines), or bare with lines; never inside a word, path or link.
const CITATION = new RegExp(String.raw`\`(${PATH})${LINES}?\`|(?<![\w./#-])(${PATH})${LINES}(?![\w/])`, "g");

function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

export function permalink(target: CitationTarget, path: string, start?: number, end?: number): string {
  const anchor =
    start === undefined ? "" : end !== undefined && end > start ? `#L${start}-L${end}` : `#L${start}`;
  return `${target.blobUrl}/${encodePath(path)}${anchor}`;
}

const WHOLE_CITATION = new RegExp(String.raw`^\`${PATH}${LINES}?\`$`);

function linkLine(line: string, target: CitationTarget): string {
  // Existing links, HTML and inline code are kept as they are, unless the code span is a citation.
  const spans = /\[[^\]\n]*\]\([^)\n]*\)|<[^>\n]*>|`[^`\n]+`/g;
  let out = "";
  let last = 0;
  for (const span of line.matchAll(spans)) {
    const text = span[0];
    out += linkText(line.slice(last, span.index), target);
    out += WHOLE_CITATION.test(text) ? linkText(text, target) : text;
    last = span.index + text.length;
  }
  return out + linkText(line.slice(last), target);
}

function linkText(text: string, target: CitationTarget): string {
  return text.replace(CITATION, (match, ...groups: Array<string | undefined>) => {
    const [tickPath, tickStart, tickEnd, tickL, tickLEnd, barePath, bareStart, bareEnd, bareL, bareLEnd] =
      groups;
    const path = tickPath ?? barePath ?? "";
    if (!target.files.has(path)) return match;
    const start = tickStart ?? tickL ?? bareStart ?? bareL;
    const end = tickEnd ?? tickLEnd ?? bareEnd ?? bareLEnd;
    const label = tickPath === undefined ? `\`${match}\`` : match;
    return `[${label}](${permalink(target, path, start === undefined ? undefined : Number(start), end === undefined ? undefined : Number(end))})`;
  });
}

export function linkCitations(markdown: string, target: CitationTarget): string {
  let fence: string | undefined;
  return markdown
    .split("\n")
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker !== undefined) {
        if (fence === undefined) fence = marker;
        else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return line;
      }
      return fence === undefined ? linkLine(line, target) : line;
    })
    .join("\n");
}
