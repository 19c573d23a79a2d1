/**
 * Each hostile input the attack pass used, in every untrusted slot of the documents built as
 * Markdown trees: read back as GitHub would, none leaves a live mention, a closing keyword or an
 * outside image, and a file name full of backticks stays inside one code span.
 */
import type { Nodes, Root } from "mdast";
import { describe, expect, it } from "vitest";
import { DOCUMENT_SLOTS } from "./document-slots.ts";
import { liveMarkupIn, readAsGitHub } from "./live-markup.ts";

const HOSTILE = [
  "@octocat please look",
  "@org/team",
  "this fixes #1 and closes o/r#2",
  "a` @octocat fixes #1 `b.txt",
  "``` \n@octocat\n```",
  "\\` @octocat \\`",
  "`a\n\n@octocat fixes #3`",
  "![chart [v2]](https://evil.example/c.png)",
  "![alt\nover two lines](https://evil.example/d.png)",
  "![r]\n\n[r]: https://evil.example/r.png",
  "<img src=https://evil.example/h.png>",
  "&#64;octocat &#x40;hubot &commat;x",
  "f&#105;xes #4",
  "<!-- hide the rest",
];

function htmlNodes(tree: Root): string[] {
  const found: string[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === "html") found.push(node.value);
    if ("children" in node) node.children.forEach(visit);
  };
  visit(tree);
  return found;
}

describe("documents built as Markdown trees", () => {
  for (const [name, publish, own] of DOCUMENT_SLOTS) {
    it(`keep hostile text inert: ${name}`, () => {
      for (const text of HOSTILE) {
        // Read back once for both checks.
        const tree = readAsGitHub(publish(text));
        expect({ text, ...liveMarkupIn(tree) }).toEqual({
          text,
          mentions: [],
          closings: own,
          outsideImages: [],
        });
        // No HTML comment from the text hides the rest of the document (a marker may carry it as JSON data).
        expect(htmlNodes(tree).filter((html) => html.startsWith("<!-- hide"))).toEqual([]);
      }
    });
  }
});
