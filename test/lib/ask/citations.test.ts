import { describe, expect, it } from "vitest";
import { linkCitations, permalink } from "../../../lib/ask/citations.ts";

const target = {
  blobUrl: "https://github.example/acme/widgets/blob/abc123",
  files: new Set(["src/greet.js", "README.md", "docs/a b.md"]),
};
const url = (rest: string) => `${target.blobUrl}/${rest}`;

describe("linkCitations", () => {
  it("links path:line, path:start-end and path#L ranges to the lines at the commit read", () => {
    expect(linkCitations("See src/greet.js:2 and src/greet.js:1-3.", target)).toBe(
      `See [\`src/greet.js:2\`](${url("src/greet.js#L2")}) and [\`src/greet.js:1-3\`](${url("src/greet.js#L1-L3")}).`,
    );
    expect(linkCitations("In `src/greet.js#L2-L3`", target)).toBe(
      `In [\`src/greet.js#L2-L3\`](${url("src/greet.js#L2-L3")})`,
    );
  });

  it("links a citation in parentheses", () => {
    expect(linkCitations("(src/greet.js:2)", target)).toBe(
      `([\`src/greet.js:2\`](${url("src/greet.js#L2")}))`,
    );
  });

  it("links a backticked file without lines to the file", () => {
    expect(linkCitations("Read `README.md` first.", target)).toBe(
      `Read [\`README.md\`](${url("README.md")}) first.`,
    );
  });

  it("leaves unknown paths, code blocks, inline code and existing links alone", () => {
    const text = [
      "src/missing.js:4 is not there.",
      "```js",
      "// src/greet.js:2",
      "```",
      "`call greet from src/greet.js:2`",
      `[greet](${url("src/greet.js#L2")})`,
      "a/src/greet.js:2",
    ].join("\n");
    expect(linkCitations(text, target)).toBe(text);
  });

  it("encodes path segments", () => {
    expect(permalink(target, "docs/a b.md", 4, 4)).toBe(url("docs/a%20b.md#L4"));
  });
});
