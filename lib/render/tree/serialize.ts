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
import { defaultHandlers, toMarkdown, type Options, type State, type Unsafe } from "mdast-util-to-markdown";
import { defuseBlock } from "./defuse.ts";
import { isGitHubImage } from "./github-image.ts";
import { text } from "./nodes.ts";

const PHRASING_BLOCKS = new Set<Nodes["type"]>(["paragraph", "heading", "tableCell"]);
const BLOCK_PARENTS = new Set<Nodes["type"]>(["root", "blockquote", "listItem", "footnoteDefinition"]);

/** The rules grouped by their character, kept from one serialisation to the next (each copies the same rules). */
let grouped:
  { rules: readonly Unsafe[]; byCharacter: ReadonlyArray<readonly [string, Unsafe[]]> } | undefined;

function rulesByCharacter(rules: readonly Unsafe[]): ReadonlyArray<readonly [string, Unsafe[]]> {
  const same =
    grouped?.rules.length === rules.length && grouped.rules.every((rule, index) => rule === rules[index]);
  if (grouped && same) return grouped.byCharacter;
  const byCharacter = new Map<string, Unsafe[]>();
  for (const rule of rules)
    byCharacter.set(rule.character, [...(byCharacter.get(rule.character) ?? []), rule]);
  grouped = { rules: [...rules], byCharacter: [...byCharacter] };
  return grouped.byCharacter;
}

/**
 * The serialiser's escaping tries each of its escaping rules (about fifty regular expressions, each
 * scoped to where it applies) on every piece of text. A rule only ever matches at its one
 * character, so this version tries only the rules whose character occurs in the piece (with the
 * characters around it that the serialiser passes along): the same escapes, at a fraction of the
 * cost, which is most of the time spent serialising.
 */
function escapeOnlyRulesThatCanMatch(state: State): void {
  const rules = state.unsafe;
  const byCharacter = rulesByCharacter(rules);
  const escape = state.safe;
  state.safe = (value, config) => {
    const piece = `${config.before ?? ""}${value ?? ""}${config.after ?? ""}`;
    const present: Unsafe[] = [];
    for (const [character, same] of byCharacter) {
      if (piece.includes(character)) for (const rule of same) present.push(rule);
    }
    state.unsafe = present;
    try {
      return escape.call(state, value, config);
    } finally {
      state.unsafe = rules;
    }
  };
}

const OPTIONS: Options = {
  extensions: [gfmToMarkdown({ tablePipeAlign: false })],
  handlers: {
    root(node, parent, state, info) {
      escapeOnlyRulesThatCanMatch(state);
      return defaultHandlers.root(node as Root, parent, state, info);
    },
  },
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
