/**
 * Words that act on GitHub, made inert in the text of a Markdown tree. An
 * `@name` or `@org/team` notifies people; a closing keyword (`fixes`,
 * `closes`, `resolved`, …) before an issue reference closes that issue when
 * the pull request merges
 * (https://docs.github.com/en/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue#linking-a-pull-request-to-an-issue-using-a-keyword).
 * An invisible U+2060 WORD JOINER after the `@` or inside the keyword splits
 * the word GitHub would match while the page reads the same.
 *
 * The text of one paragraph, heading or table cell can be split over several
 * nodes (`*clo*ses #1`, `**x**@octocat`), and GitHub may read each node alone
 * or the run as a whole. So both are checked: each text node by itself, and
 * the text of the whole block with anything that is not text (code, images)
 * as a separator. Every closing keyword is defused, whatever follows it: what
 * counts as a reference (`#1`, `owner/repo#1`, an issue URL, a link to one)
 * is GitHub's to decide, and the joiner costs the reader nothing.
 */
import type { Nodes, Parents, Text } from "mdast";

const JOINER = "\u2060";

/** GitHub's closing keywords, as whole words in any case. */
const KEYWORD = /(?<![\p{L}\p{N}_])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?![\p{L}\p{N}_])/giu;
/** An `@` followed by what can start a login or an organisation name. */
const AT = /@(?=[A-Za-z0-9])/g;
/** Stands for a node that is not text when a block's text is read as one string. */
const SEPARATOR = "\uFFFC";

interface Piece {
  readonly node: Text | undefined;
  readonly start: number;
}

/** Every text node of a paragraph, heading or cell, in reading order, with where each begins in the joined text. */
function flatten(block: Parents): { text: string; pieces: Piece[] } {
  let text = "";
  const pieces: Piece[] = [];
  const walk = (node: Nodes): void => {
    if (node.type === "text") {
      pieces.push({ node, start: text.length });
      text += node.value;
    } else if ("children" in node) {
      for (const child of node.children) walk(child);
    } else {
      pieces.push({ node: undefined, start: text.length });
      text += SEPARATOR;
    }
  };
  for (const child of block.children) walk(child);
  return { text, pieces };
}

/** The piece holding the character at `offset` of the joined text (pieces are in order). */
function pieceAt(pieces: readonly Piece[], offset: number): Piece | undefined {
  let low = 0;
  let high = pieces.length - 1;
  let found: Piece | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const piece = pieces[middle];
    if (piece && piece.start <= offset) {
      found = piece;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Offsets of the joined text a joiner goes after: the first letter of a keyword, an `@`. */
function joinerAfter(text: string, pieces: readonly Piece[]): Set<number> {
  const after = new Set<number>();
  for (const match of text.matchAll(KEYWORD)) after.add(match.index);
  for (const piece of pieces) {
    if (!piece.node) continue;
    for (const match of piece.node.value.matchAll(KEYWORD)) after.add(piece.start + match.index);
  }
  // Every `@` before a name, e-mail addresses too: GFM links `a@b.com`, and the text after that link starts a new node.
  for (const match of text.matchAll(AT)) after.add(match.index);
  return after;
}

/** Defuses mentions and closing keywords in the text nodes of one phrasing block, in place. */
export function defuseBlock(block: Parents): void {
  const { text, pieces } = flatten(block);
  const byNode = new Map<Text, number[]>();
  for (const offset of joinerAfter(text, pieces)) {
    const piece = pieceAt(pieces, offset);
    if (!piece?.node) continue;
    const list = byNode.get(piece.node) ?? [];
    list.push(offset - piece.start + 1);
    byNode.set(piece.node, list);
  }
  for (const [node, cuts] of byNode) {
    cuts.sort((a, b) => a - b);
    let value = "";
    let last = 0;
    for (const cut of cuts) {
      value += `${node.value.slice(last, cut)}${JOINER}`;
      last = cut;
    }
    node.value = value + node.value.slice(last);
  }
}

/**
 * Plain text that is not Markdown (a commit message): mentions defused, and
 * closing keywords followed by an issue reference, so `fix: …` stays a
 * conventional commit type.
 */
export function defusePlainText(text: string): string {
  return text
    .replace(/(^|[^A-Za-z0-9])@(?=[A-Za-z0-9])/g, `$1@${JOINER}`)
    .replace(
      /(?<![\p{L}\p{N}_])(c|f|r)((?:lose[sd]?|ix(?:e[sd])?|esolve[sd]?)\s*:?\s*(?:[\w.-]+\/[\w.-]+#\d|#\d|https?:\/\/|GH-\d))/giu,
      `$1${JOINER}$2`,
    );
}
