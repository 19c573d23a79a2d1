/**
 * Which lines of a pull request a review comment may sit on. GitHub accepts a
 * line comment only on a line the diff shows: on the RIGHT an added or context
 * line (new numbering), on the LEFT a removed or context line (old numbering).
 * Any other anchor fails the whole review with 422, so findings are placed
 * before posting and the rest go into the review body.
 */
import { parsePatch } from "diff";
import type { Finding } from "./review-schema.ts";

export type Side = "LEFT" | "RIGHT";

export interface DiffAnchors {
  /** `path` → side → lines a comment may anchor to. */
  readonly files: ReadonlyMap<string, Readonly<Record<Side, ReadonlySet<number>>>>;
}

export interface InlineFinding extends Finding {
  readonly side: Side;
}

export interface PlacedFindings {
  readonly inline: readonly InlineFinding[];
  /** Findings GitHub would reject as line comments; they are reported in the review body instead. */
  readonly unplaced: readonly Finding[];
}

function stripPrefix(name: string | undefined): string | undefined {
  if (name === undefined || name === "/dev/null") return undefined;
  return name.replace(/^[ab]\//, "");
}

export function diffAnchors(diff: string): DiffAnchors {
  const files = new Map<string, Record<Side, Set<number>>>();
  for (const patch of parsePatch(diff)) {
    const path = stripPrefix(patch.newFileName) ?? stripPrefix(patch.oldFileName);
    if (path === undefined) continue;
    const sides = files.get(path) ?? { LEFT: new Set<number>(), RIGHT: new Set<number>() };
    files.set(path, sides);
    for (const hunk of patch.hunks) {
      let oldLine = hunk.oldStart;
      let newLine = hunk.newStart;
      for (const line of hunk.lines) {
        if (line.startsWith("+")) {
          sides.RIGHT.add(newLine++);
        } else if (line.startsWith("-")) {
          sides.LEFT.add(oldLine++);
        } else if (line.startsWith(" ")) {
          sides.RIGHT.add(newLine++);
          sides.LEFT.add(oldLine++);
        }
      }
    }
  }
  return { files };
}

export function isAnchorable(anchors: DiffAnchors, path: string, side: Side, line: number): boolean {
  return anchors.files.get(path)?.[side].has(line) ?? false;
}

/** Findings on diff lines become line comments (side RIGHT unless given); the others are kept for the body. */
export function placeFindings(findings: readonly Finding[], anchors: DiffAnchors): PlacedFindings {
  const inline: InlineFinding[] = [];
  const unplaced: Finding[] = [];
  for (const finding of findings) {
    const side = finding.side ?? "RIGHT";
    if (isAnchorable(anchors, finding.path, side, finding.line)) inline.push({ ...finding, side });
    else unplaced.push(finding);
  }
  return { inline, unplaced };
}
