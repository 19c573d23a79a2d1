/**
 * A tree Locus built, as the Markdown it posts. Whatever the builders were
 * given, the serialised text cannot act on GitHub: before writing, every
 * HTML node that is not Locus's own is turned into text, every image not
 * served by GitHub (and every reference-style image) into a short note, and
 * the text of every paragraph, heading and table cell is defused (mentions,
 * closing keywords). `mdast-util-to-markdown` then escapes text so it stays
 * text, and fences code with more backticks than it holds.
 */
import type { Nodes, Parents, PhrasingContent, Root, RootContent } from "mdast";
import { gfmToMarkdown } from "mdast-util-gfm";
import { toMarkdown, type Options } from "mdast-util-to-markdown";
import { defuseBlock } from "./defuse.ts";
import { isGitHubImage } from "./github-image.ts";
import { text } from "./nodes.ts";

const PHRASING_BLOCKS = new Set<Nodes["type"]>(["paragraph", "heading", "tableCell"]);
const BLOCK_PARENTS = new Set<Nodes["type"]>(["root", "blockquote", "listItem", "footnoteDefinition"]);

const OPTIONS: Options = {
  extensions: [gfmToMarkdown({ tablePipeAlign: false })],
  bullet: "-",
  emphasis: "_",
  rule: "-",
  fences: true,
  listItemIndent: "one",
};

/** What stands in a tree for a node that may not be published as it is; undefined keeps it. */
function replacement(node: RootContent, parent: Parents): RootContent | null | undefined {
  let shown: PhrasingContent | undefined;
  if (node.type === "html" && !node.data?.locusTrusted) shown = text(node.value);
  else if (node.type === "image" && !isGitHubImage(node.url)) {
    shown = text(node.alt ? `[image removed: ${node.alt}]` : "[image removed]");
  } else if (node.type === "imageReference") shown = text("[image removed]");
  else if (node.type === "definition") return null;
  if (!shown) return undefined;
  return BLOCK_PARENTS.has(parent.type) ? { type: "paragraph", children: [shown] } : shown;
}

/**
 * A copy of `parent` with what may not be published replaced and its text defused. Every parent
 * and text node on the way is copied (the defuser edits text in place) and the tree given is left
 * as it was, so no whole-tree clone is needed first.
 */
function neutralised<T extends Parents>(parent: T): T {
  const children: RootContent[] = [];
  for (const child of parent.children) {
    const next = replacement(child, parent);
    if (next === null) continue;
    const node = next ?? child;
    if ("children" in node) children.push(neutralised(node));
    else children.push(node.type === "text" ? { ...node } : node);
  }
  const copy = { ...parent, children } as T;
  if (PHRASING_BLOCKS.has(copy.type)) defuseBlock(copy);
  return copy;
}

/** The Markdown GitHub is given for a tree Locus built. */
export function toGitHubMarkdown(tree: Root): string {
  return toMarkdown(neutralised(tree), OPTIONS).trimEnd();
}

/**
 * Inline content as the text of one cell of a table Locus writes row by row:
 * serialised as a cell (so `|`, even inside code, is escaped the way a table
 * needs), then taken out of its one-cell table.
 */
export function toTableCellMarkdown(parts: readonly PhrasingContent[]): string {
  const cell: RootContent = {
    type: "table",
    children: [{ type: "tableRow", children: [{ type: "tableCell", children: [...parts] }] }],
  };
  const row = toGitHubMarkdown({ type: "root", children: [cell] }).split("\n")[0] ?? "";
  return row.replace(/^\| ?/, "").replace(/ ?\|$/, "");
}
