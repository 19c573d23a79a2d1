/**
 * markdown-it's states and tokens, built with plain assignments. markdown-it 15 ships its classes
 * compiled down so that every class field is set through a `defineProperty` helper (a type check,
 * a key conversion and an `Object.defineProperty` call per field): eight per token and twelve per
 * inline state, a fifth of a parse's time. The objects made here have the same own fields in the
 * same order, and inherit the same methods from markdown-it's own prototypes, so every rule sees
 * what it would see with the stock classes (test/lib/prompt/plain-tokens.test.ts checks the fields
 * against the stock ones, so an upgrade that adds one fails there). `push` and `pushPending` are
 * markdown-it 15's own, with the token made here instead.
 */
import markdownIt, { type MarkdownIt, type StateInline, type Token } from "markdown-it";

const { StateBlock, StateInline: StockStateInline, Token: StockToken } = markdownIt;

type Nesting = Token["nesting"];

/** A `Token` whose fields are assigned, in the order the stock constructor defines them. */
export class PlainToken implements Token {
  map: Token["map"] = null;
  level = 0;
  children: Token["children"] = null;
  content = "";
  markup = "";
  info = "";
  block = false;
  hidden = false;
  type: string;
  tag: string;
  attrs: Token["attrs"] = null;
  nesting: Nesting;
  meta: Token["meta"] = null;
  // Inherited from markdown-it's Token (the prototype is linked below).
  declare attrIndex: Token["attrIndex"];
  declare attrPush: Token["attrPush"];
  declare attrSet: Token["attrSet"];
  declare attrGet: Token["attrGet"];
  declare attrJoin: Token["attrJoin"];

  constructor(type: string, tag: string, nesting: Nesting) {
    this.type = type;
    this.tag = tag;
    this.nesting = nesting;
  }
}
Object.setPrototypeOf(PlainToken.prototype, StockToken.prototype);

/** The block state, making plain tokens; one is made per parse, so its own constructor is kept. */
export class PlainBlockState extends StateBlock {
  override push(type: string, tag: string, nesting: Nesting): Token {
    const token = new PlainToken(type, tag, nesting);
    token.block = true;
    if (nesting < 0) this.level -= 1;
    token.level = this.level;
    if (nesting > 0) this.level += 1;
    this.tokens.push(token);
    return token;
  }
}

/**
 * The inline state, making plain tokens. One is made for every paragraph, heading and table cell,
 * so its fields are assigned too (same order as the stock constructor), and its other methods are
 * inherited from markdown-it's StateInline (the prototype is linked below).
 */
export class PlainInlineState implements StateInline {
  pos = 0;
  level = 0;
  pending = "";
  pendingLevel = 0;
  cache: StateInline["cache"] = {};
  backticks: StateInline["backticks"] = {};
  backticksScanned = false;
  skipHtmlSpecial = false;
  linkLevel = 0;
  delimiters: StateInline["delimiters"] = [];
  _prev_delimiters: StateInline["_prev_delimiters"] = [];
  Token = StockToken;
  src: string;
  env: StateInline["env"];
  md: MarkdownIt;
  tokens: Token[];
  tokens_meta: StateInline["tokens_meta"];
  posMax: number;
  declare scanDelims: StateInline["scanDelims"];

  constructor(src: string, md: MarkdownIt, env: StateInline["env"], outTokens: Token[]) {
    this.src = src;
    this.env = env;
    this.md = md;
    this.tokens = outTokens;
    this.tokens_meta = Array<StateInline["tokens_meta"][number]>(outTokens.length);
    this.posMax = src.length;
  }

  pushPending(): Token {
    const token = new PlainToken("text", "", 0);
    token.content = this.pending;
    token.level = this.pendingLevel;
    this.tokens.push(token);
    this.pending = "";
    return token;
  }

  push(type: string, tag: string, nesting: Nesting): Token {
    if (this.pending) this.pushPending();
    const token = new PlainToken(type, tag, nesting);
    let tokenMeta: StateInline["tokens_meta"][number];
    if (nesting < 0) {
      this.level -= 1;
      // Every rule closes what it opened in the same state, so there is always one to restore.
      this.delimiters = this._prev_delimiters.pop() ?? [];
    }
    token.level = this.level;
    if (nesting > 0) {
      this.level += 1;
      this._prev_delimiters.push(this.delimiters);
      this.delimiters = [];
      tokenMeta = { delimiters: this.delimiters };
    }
    this.pendingLevel = this.level;
    this.tokens.push(token);
    this.tokens_meta.push(tokenMeta);
    return token;
  }
}
Object.setPrototypeOf(PlainInlineState.prototype, StockStateInline.prototype);

/** Makes `parser` build its block and inline tokens with the classes above. */
export function usePlainTokens(parser: MarkdownIt): void {
  parser.block.State = PlainBlockState;
  parser.inline.State = PlainInlineState;
}
