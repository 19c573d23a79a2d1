/**
 * Builders for the Markdown trees Locus publishes. Strings given to them are
 * always text: they land in text nodes (shown as written, escaped when
 * serialised) or in code. The only raw markup a tree can carry is Locus's own
 * (`trustedHtml`: hidden markers, `<details>`, `<sub>`, the task's own
 * `Closes #N` and the requester's mention), built here from constants and
 * checked values; the serialiser shows any other HTML node as text.
 */
import type {
  BlockContent,
  Code,
  Html,
  InlineCode,
  List,
  PhrasingContent,
  Root,
  TableCell,
  Text,
} from "mdast";

declare module "mdast" {
  interface HtmlData {
    /** Locus's own markup, published as is. */
    locusTrusted?: boolean;
  }
}

/** Phrasing content, or a string that becomes a text node. */
export type Inline = PhrasingContent | string;
/** A block, or nothing (skipped), so optional parts read inline. */
export type MaybeBlock = BlockContent | readonly BlockContent[] | undefined | false;

function inline(parts: readonly Inline[]): PhrasingContent[] {
  return parts.map((part) => (typeof part === "string" ? text(part) : part));
}

export function root(...blocks: MaybeBlock[]): Root {
  return { type: "root", children: blocks.flatMap((block) => (block ? block : [])) };
}

/** Text shown as written. */
export function text(value: string): Text {
  return { type: "text", value };
}

/** Text on one line (a file name, a check's name, a title): line breaks and runs of blanks become one space. */
export function plain(value: string): Text {
  return text(value.replace(/\s+/g, " "));
}

/** Inline code on one line; the serialiser fences it with more backticks than it contains. */
export function code(value: string): InlineCode {
  return { type: "inlineCode", value: value.replace(/\s+/g, " ") };
}

/** A fenced block; the serialiser's fence is longer than any backtick run inside. */
export function codeBlock(value: string, lang?: string): Code {
  return { type: "code", lang: lang && /^[\w+-]{1,30}$/.test(lang) ? lang : null, value };
}

export function paragraph(...parts: Inline[]): BlockContent {
  return { type: "paragraph", children: inline(parts) };
}

export function heading(depth: 1 | 2 | 3 | 4 | 5 | 6, ...parts: Inline[]): BlockContent {
  return { type: "heading", depth, children: inline(parts) };
}

export function strong(...parts: Inline[]): PhrasingContent {
  return { type: "strong", children: inline(parts) };
}

export function emphasis(...parts: Inline[]): PhrasingContent {
  return { type: "emphasis", children: inline(parts) };
}

/** A link; `url` is Locus's (a run, a branch, a commit), never text someone else chose. */
export function link(url: string, ...parts: Inline[]): PhrasingContent {
  return { type: "link", url, children: inline(parts) };
}

export function blockquote(...blocks: MaybeBlock[]): BlockContent {
  return { type: "blockquote", children: root(...blocks).children as BlockContent[] };
}

/** A list whose items are each a line of inline content or a few blocks. */
export function list(items: ReadonlyArray<readonly Inline[] | { blocks: readonly BlockContent[] }>): List {
  return {
    type: "list",
    ordered: false,
    spread: false,
    children: items.map((item) => ({
      type: "listItem",
      spread: false,
      children: "blocks" in item ? [...item.blocks] : [{ type: "paragraph", children: inline(item) }],
    })),
  };
}

export function table(
  align: ReadonlyArray<"left" | "right" | "center" | null>,
  rows: ReadonlyArray<readonly (readonly Inline[])[]>,
): BlockContent {
  const cell = (parts: readonly Inline[]): TableCell => ({ type: "tableCell", children: inline(parts) });
  return {
    type: "table",
    align: [...align],
    children: rows.map((row) => ({ type: "tableRow", children: row.map(cell) })),
  };
}

/** Locus's own markup: a constant or a value Locus checked, never text from anyone else. */
export function trustedHtml(value: string): Html {
  return { type: "html", value, data: { locusTrusted: true } };
}

/** A collapsed section; its summary is Locus's own words. */
export function details(summary: string, ...blocks: MaybeBlock[]): BlockContent[] {
  const open = trustedHtml(`<details>\n<summary>${summary.replace(/[<>&]/g, "")}</summary>`);
  return [open, ...(root(...blocks).children as BlockContent[]), trustedHtml("</details>")];
}

/** Small print (`<sub>`) around inline content. */
export function small(...parts: Inline[]): BlockContent {
  return { type: "paragraph", children: [trustedHtml("<sub>"), ...inline(parts), trustedHtml("</sub>")] };
}

/** The task's own closing keyword: the one issue a Locus pull request may close. */
export function closesIssue(issue: number): Html {
  if (!Number.isSafeInteger(issue) || issue < 1) throw new Error(`not an issue number: ${issue}`);
  return trustedHtml(`Closes #${issue}`);
}

/** A mention Locus makes on purpose (the person who asked for the work); anything not a login is plain text. */
export function mention(login: string): PhrasingContent {
  return /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(login) ? trustedHtml(`@${login}`) : plain(login);
}
