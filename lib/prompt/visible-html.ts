/**
 * The raw HTML inside a Markdown document, reduced to what a reader of GitHub sees. Markdown's
 * parser hands over each HTML fragment (a block, or one inline tag) with its offset; all of them are
 * read as one stream by htmlparser2, so a tag opened in one fragment and closed in another pairs up
 * as it does in the browser. The output is built from an allowlist: text, and the tags GitHub's
 * sanitizer keeps with only the attributes whose effect shows. Comments, `<!…>` declarations,
 * `<?…?>` instructions, CDATA and anything the tokenizer cannot read are left out because nothing
 * emits them. An element a browser never renders (`script`, `style`, `template`) or one hidden on
 * purpose (`hidden`, `display:none` and the like) goes with its content, whatever lies between its
 * tags; left unclosed, it hides the rest of the document.
 */
import { defaultSchema } from "hast-util-sanitize";
import { Parser } from "htmlparser2";

/** An HTML node of the Markdown tree: its offset in the document and its source text. */
export interface HtmlFragment {
  readonly start: number;
  readonly source: string;
}

/** Replace `[start, end)` of the document with `text`. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** GitHub's allowlist of tags (as hast-util-sanitize derives it from GitHub's sanitizer). */
const SHOWN_TAGS = new Set(defaultSchema.tagNames ?? []);
/** URL schemes GitHub keeps, per attribute; a link with another scheme renders without its target. */
const PROTOCOLS: Readonly<Record<string, readonly string[] | null | undefined>> =
  defaultSchema.protocols ?? {};
/** Elements whose content a browser never shows. */
const INVISIBLE_ELEMENTS = new Set(["script", "style", "template"]);
/** Elements that have no content and no closing tag (HTML's void elements). */
const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
/**
 * The attributes whose effect a reader sees: where a link goes, what an image shows, an open
 * `<details>`. `alt` and `title` show on hover or not at all, `data-*`, `class` and `aria-*` not
 * even that.
 */
const SHOWN_ATTRIBUTES = ["href", "src", "open"] as const;

interface Hidden {
  readonly name: string;
  readonly fragment: number;
  depth: number;
}

/** One edit per fragment (its visible rebuild) plus removals of what hidden elements span between fragments. */
export function visibleHtml(fragments: readonly HtmlFragment[], documentEnd: number): Edit[] {
  const starts: number[] = [];
  let stream = "";
  for (const fragment of fragments) {
    starts.push(stream.length);
    stream += fragment.source;
  }
  const pieces: string[][] = fragments.map(() => []);
  const removals: Edit[] = [];
  let hidden: Hidden | undefined;
  /** How much of the stream the parser's events have covered; the rest is a token left open. */
  let covered = 0;
  const cover = (): void => {
    covered = Math.max(covered, parser.endIndex + 1);
  };

  /** The fragment holding stream index `at`: the last one starting at or before it. */
  const fragmentAt = (at: number): number => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const fragmentEnd = (index: number): number => {
    const fragment = fragments[index];
    return fragment ? fragment.start + fragment.source.length : documentEnd;
  };
  const emit = (at: number, text: string): void => {
    pieces[fragmentAt(at)]?.push(text);
  };
  /** Text between two events may straddle fragments; each keeps its own part. */
  const emitSource = (from: number, to: number): void => {
    for (let index = fragmentAt(from); index < fragments.length && (starts[index] ?? 0) < to; index += 1) {
      const begin = starts[index] ?? 0;
      const end = begin + (fragments[index]?.source.length ?? 0);
      pieces[index]?.push(stream.slice(Math.max(from, begin), Math.min(to, end)));
    }
  };
  const endHidden = (closedIn: number): void => {
    if (hidden && closedIn !== hidden.fragment) {
      removals.push({
        start: fragmentEnd(hidden.fragment),
        end: fragments[closedIn]?.start ?? documentEnd,
        text: "",
      });
    }
    hidden = undefined;
  };

  /**
   * A token (a tag whose attribute value runs on, a comment, a declaration) that starts in one
   * fragment and ends in a later one swallows the Markdown between them: in the browser that text
   * is inside the tag, not on the page. So the gaps it spans go too.
   */
  const dropSpannedGaps = (): void => {
    cover();
    const first = fragmentAt(parser.startIndex);
    const last = fragmentAt(parser.endIndex);
    for (let index = first; index < last; index += 1)
      removals.push({ start: fragmentEnd(index), end: fragments[index + 1]?.start ?? documentEnd, text: "" });
  };

  const parser = new Parser({
    oncomment: dropSpannedGaps,
    onprocessinginstruction: dropSpannedGaps,
    oncdatastart: dropSpannedGaps,
    onopentag(name, attributes, implied) {
      if (implied) return;
      dropSpannedGaps();
      const at = parser.startIndex;
      if (hidden) {
        if (name === hidden.name && !VOID_ELEMENTS.has(name)) hidden.depth += 1;
        return;
      }
      if (INVISIBLE_ELEMENTS.has(name) || isHiddenByAttributes(attributes)) {
        // A void element hides nothing beyond itself.
        if (!VOID_ELEMENTS.has(name)) hidden = { name, fragment: fragmentAt(at), depth: 1 };
        return;
      }
      if (!SHOWN_TAGS.has(name)) return;
      const selfClosing = stream.slice(at, parser.endIndex + 1).endsWith("/>");
      emit(at, openingTag(name, attributes, selfClosing));
    },
    onclosetag(name, implied) {
      if (implied) return;
      dropSpannedGaps();
      const at = parser.startIndex;
      if (hidden) {
        if (name === hidden.name) hidden.depth -= 1;
        if (hidden.depth === 0) endHidden(fragmentAt(at));
        return;
      }
      if (SHOWN_TAGS.has(name) && !VOID_ELEMENTS.has(name)) emit(at, `</${name}>`);
    },
    ontext() {
      cover();
      // The source, not the decoded text: `&lt;` must stay text, not become a tag.
      if (!hidden) emitSource(parser.startIndex, parser.endIndex + 1);
    },
  });
  parser.end(stream);
  if (hidden) removals.push({ start: fragmentEnd(hidden.fragment), end: documentEnd, text: "" });
  // A tag whose attribute value never closes takes the rest of the page into the tag.
  if (covered < stream.length) {
    removals.push({ start: fragmentEnd(fragmentAt(covered)), end: documentEnd, text: "" });
  }

  const rebuilt = fragments.map((fragment, index) => ({
    start: fragment.start,
    end: fragment.start + fragment.source.length,
    text: (pieces[index] ?? []).join(""),
  }));
  return [...rebuilt, ...removals];
}

function isHiddenByAttributes(attributes: Readonly<Record<string, string>>): boolean {
  if ("hidden" in attributes) return true;
  const css = (attributes["style"] ?? "").replace(/\s+/g, "").toLowerCase();
  return /display:none|visibility:hidden|font-size:0(?![.\d]*[1-9])|opacity:0(?![.\d]*[1-9])/.test(css);
}

function openingTag(
  name: string,
  attributes: Readonly<Record<string, string>>,
  selfClosing: boolean,
): string {
  const kept = SHOWN_ATTRIBUTES.flatMap((attribute) => {
    const value = attributes[attribute];
    if (value === undefined || !allowedUrl(attribute, value)) return [];
    return attribute === "open" ? [" open"] : [` ${attribute}="${escapeAttribute(value)}"`];
  });
  return `<${name}${kept.join("")}${selfClosing ? " /" : ""}>`;
}

/** GitHub's rule, as hast-util-sanitize applies it: a scheme before any `/`, `?` or `#` must be listed. */
function allowedUrl(attribute: string, value: string): boolean {
  const protocols = PROTOCOLS[attribute];
  if (!protocols) return true;
  const colon = value.indexOf(":");
  if (colon === -1) return true;
  const beforeColon = value.slice(0, colon);
  if (/[/?#]/.test(beforeColon)) return true;
  return protocols.includes(beforeColon.toLowerCase());
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}
