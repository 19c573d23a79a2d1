/**
 * The part of a Markdown document that is not code: code spans and blocks are shown as written, so
 * a sanitiser keeps them, and checks on hidden markup look only at the rest.
 */
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

export function outsideCode(markdown: string): string {
  const code: Array<readonly [number, number]> = [];
  const visit = (node: Nodes): void => {
    if (node.type === "code" || node.type === "inlineCode") {
      code.push([node.position?.start.offset ?? 0, node.position?.end.offset ?? 0]);
    } else if ("children" in node) node.children.forEach(visit);
  };
  visit(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
  let rest = "";
  let cursor = 0;
  for (const [start, end] of code) {
    // A space, not nothing, so the text on either side of the code cannot join into markup.
    rest += `${markdown.slice(cursor, start)} `;
    cursor = end;
  }
  return rest + markdown.slice(cursor);
}
