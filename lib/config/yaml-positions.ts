import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from "yaml";

export type KeyPath = readonly (string | number)[];

export interface SourcePosition {
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

export interface KeyLocation {
  readonly position: SourcePosition;
  /** False when only a leading part of the path exists in the file; the position is that part's. */
  readonly exact: boolean;
}

/**
 * Where `path` is written in the file: the key of a mapping entry, or the item of a sequence.
 * A path the file does not spell out (a default, a key a migration moved) resolves to its deepest
 * written ancestor so an error still points somewhere near; undefined when not even the first
 * segment is written.
 */
export function locateKey(doc: Document, lineCounter: LineCounter, path: KeyPath): KeyLocation | undefined {
  let node: unknown = doc.contents;
  let offset: number | undefined;
  for (const [index, segment] of path.entries()) {
    const step = stepInto(node, segment);
    if (step === undefined) return positionOf(lineCounter, offset, false);
    offset = step.offset;
    node = step.node;
    if (index === path.length - 1) return positionOf(lineCounter, offset, true);
  }
  return undefined;
}

function stepInto(node: unknown, segment: string | number): { node: unknown; offset: number } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
    const key = pair?.key as Node | undefined;
    if (pair === undefined || key?.range === undefined || key.range === null) return undefined;
    return { node: pair.value, offset: key.range[0] };
  }
  if (isSeq(node) && typeof segment === "number") {
    const item = node.items[segment] as Node | undefined;
    if (item?.range === undefined || item.range === null) return undefined;
    return { node: item, offset: item.range[0] };
  }
  return undefined;
}

function positionOf(lineCounter: LineCounter, offset: number | undefined, exact: boolean) {
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { position: { line, column: col }, exact };
}
