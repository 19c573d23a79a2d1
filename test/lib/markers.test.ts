/**
 * The hidden markers: written and parsed by lib/markers.ts alone, each listed
 * in docs/architecture.md ("Hidden markers"), and read back exactly as written.
 */
import { readFile } from "node:fs/promises";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  embedJson,
  hiddenMarker,
  isLocusMarked,
  MARKER_NAMES,
  markerJson,
  markerKey,
  markerValue,
  repliedCommentId,
  replyMarker,
  withoutMarker,
} from "../../lib/markers.ts";
import { sourceImportGraph } from "../source-import-graph.ts";

const root = new URL("../..", import.meta.url);

/** The text of every string, template piece and regular expression in a source file. */
function literals(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateLiteralToken(node) ||
      ts.isRegularExpressionLiteral(node)
    ) {
      found.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A literal that spells a marker out instead of asking lib/markers.ts for it. */
function spellsMarker(literal: string): boolean {
  return literal.includes("<!-- locus") || MARKER_NAMES.some((name) => literal === markerKey(name));
}

describe("hidden markers", () => {
  it("are each listed in docs/architecture.md", async () => {
    const docs = await readFile(new URL("docs/architecture.md", root), "utf8");
    const missing = MARKER_NAMES.filter((name) => !new RegExp(`<!-- locus:${name}[ :]`).test(docs));
    expect(missing).toEqual([]);
  });

  it("are spelled out nowhere but lib/markers.ts", async () => {
    const files = [...(await sourceImportGraph()).keys()].filter((file) => file !== "lib/markers.ts");
    const spelled: string[] = [];
    for (const file of files) {
      const text = await readFile(new URL(file, root), "utf8");
      for (const literal of literals(file, text).filter(spellsMarker)) spelled.push(`${file}: ${literal}`);
    }
    expect(spelled).toEqual([]);
    // The scan sees every kind of literal a marker could hide in.
    const sample = ['"<!-- locus:a -->"', "`<!-- locus:${b} -->`", "/<!-- locus:c/", '"locus:status"'];
    expect(
      literals("x.ts", sample.map((code) => `f(${code});`).join("\n")).filter(spellsMarker),
    ).toHaveLength(4);
  });

  it("read back the value they were written with, and only their own", () => {
    const body = [
      hiddenMarker("plan-comment"),
      hiddenMarker("plan-approved", embedJson({ 1: 12 })),
      hiddenMarker("plan", embedJson({ note: "a --> b" })),
    ].join("\n");
    expect(body).toContain("<!-- locus:plan-comment -->");
    expect(markerJson(body, "plan")).toEqual({ note: "a --> b" });
    expect(embedJson({ note: "a --!> <img src=x>" })).toBe('{"note":"a --!\\u003e \\u003cimg src=x\\u003e"}');
    expect(markerJson(body, "plan-approved")).toEqual({ 1: 12 });
    expect(markerValue(body, "sprint")).toBeUndefined();
    expect(markerJson("<!-- locus:plan {not json -->", "plan")).toBeUndefined();
    expect(withoutMarker(body, "plan-approved")).not.toContain("plan-approved");
    expect(withoutMarker(body, "plan-approved")).toContain("<!-- locus:plan {");
  });

  it("tell Locus's bookkeeping from people's words", () => {
    expect(isLocusMarked(`  ${hiddenMarker("question")}\nWhich one?`)).toBe(true);
    expect(isLocusMarked("I wrote <!-- locus:status --> in the middle")).toBe(false);
  });

  it("name the comment a reply answers only on the reply's last line", () => {
    expect(replyMarker(42)).toBe("<!-- locus:reply-to:42 -->");
    expect(repliedCommentId(`Done.\n${replyMarker(42)}`)).toBe(42);
    expect(repliedCommentId(`> ${replyMarker(42)}`)).toBeUndefined();
    expect(() => replyMarker(0)).toThrow(/positive integer/);
  });
});
