import { describe, expect, it } from "vitest";
import { parseCommand } from "../../../lib/commands/parse.ts";

function kind(body: string): string {
  return parseCommand(body).kind;
}

describe("parseCommand: /locus hidden by Markdown is not a command", () => {
  describe("fenced code", () => {
    it.each([
      "```\n/locus run\n```",
      "~~~\n/locus run\n~~~",
      "````md\n```\n/locus run\n```\n````",
      "~~~~\n~~~\n/locus run\n~~~~",
      "```\n/locus run\n",
      "Intro\n```sh\n/locus run",
      "  ```\n/locus run\n  ```",
      "```\n/locus run\n```   \n````\n/locus review",
      "- ```\n  /locus run\n  ```",
      "1. ~~~\n   /locus run\n   ~~~",
    ])("%j", (body) => {
      expect(kind(body)).toBe("none");
    });

    it("finds the command after a closed fence", () => {
      expect(parseCommand("```\n/locus review\n```\n/locus run")).toStrictEqual({
        kind: "command",
        command: { name: "run" },
        notes: [],
      });
      expect(kind("~~~\n/locus review\n~~~~~\n/locus run")).toBe("command");
    });

    it("closes only with the opening character and at least its length", () => {
      expect(kind("````\n```\n~~~~\n/locus run\n````")).toBe("none");
      expect(kind("````\n`````\n/locus run")).toBe("command");
    });

    it("does not close with text after the fence or with 4+ columns of indentation", () => {
      expect(kind("```\n``` not a close\n/locus run\n```")).toBe("none");
      expect(kind("```\n    ```\n/locus run\n```")).toBe("none");
    });

    it("does not open with fewer than 3 characters or a backtick in the info string", () => {
      expect(kind("``\n/locus run")).toBe("command");
      expect(kind("``` a`b\n/locus run")).toBe("command");
      expect(kind("~~~ a`b\n/locus run\n~~~")).toBe("none");
    });

    it("does not open with 4+ columns of indentation (that is indented code, or a paragraph line)", () => {
      expect(kind("Intro\n    ```\n/locus run")).toBe("command");
    });

    it("ends a list item's fence at a line indented less than the item's content", () => {
      expect(kind("- ```\n  code\n/locus run")).toBe("command");
    });
  });

  describe("indented code", () => {
    it.each([
      "    /locus run",
      "\t/locus run",
      "Intro\n\n    /locus run",
      "Intro\n\n\t/locus run",
      "Intro\n\n    code\n\n    /locus run",
      "# Heading\n    /locus run",
      "```\nx\n```\n    /locus run",
      "> quote\n    /locus run",
    ])("%j", (body) => {
      expect(kind(body)).toBe("none");
    });

    it("treats an indented line right under prose as prose (a paragraph continuation)", () => {
      expect(kind("Intro\n    /locus run")).toBe("command");
    });

    it("treats up to 3 columns of indentation as prose", () => {
      expect(kind("   /locus run")).toBe("command");
      expect(kind("Intro\n\n   /locus run")).toBe("command");
    });
  });

  describe("inline code", () => {
    it.each([
      "`/locus run`",
      "Use `/locus run` to start.",
      "``/locus run``",
      "Try `foo\n/locus run` here",
      "``a ` b\n/locus run``",
      "- text `a\n  /locus run`",
    ])("%j", (body) => {
      expect(kind(body)).toBe("none");
    });

    it("ignores an unmatched backtick", () => {
      expect(kind("Odd ` tick\n/locus run")).toBe("command");
      expect(kind("``a`\n/locus run")).toBe("command");
    });

    it("does not carry a code span across a blank line, a list item or a heading", () => {
      expect(kind("`a\n\n/locus run\nb`")).toBe("command");
      expect(kind("- `a\n- b\n/locus run\nc`")).toBe("command");
      expect(kind("# `a\n/locus run\nb`")).toBe("command");
    });

    it("does not open a code span with an escaped backtick", () => {
      expect(kind("\\`a\n/locus run\nb`")).toBe("command");
    });
  });

  describe("quotes", () => {
    it.each([
      "> /locus run",
      ">/locus run",
      "   > /locus run",
      ">> /locus run",
      "> > /locus run",
      "> Earlier:\n>\n> /locus run",
      "> ```\n> /locus run",
    ])("%j", (body) => {
      expect(kind(body)).toBe("none");
    });

    it("judges quotes line by line: a command under a quote counts", () => {
      expect(kind("> please run it\n/locus run")).toBe("command");
      expect(kind("> please run it\n\n/locus run")).toBe("command");
    });

    it("does not let a fence opened in a quote hide what follows the quote", () => {
      expect(kind("> ```\n/locus run")).toBe("command");
    });
  });

  describe("HTML comments", () => {
    it.each([
      "<!-- /locus run -->",
      "<!--\n/locus run\n-->",
      "  <!-- note\n/locus run\nstill comment --> trailing",
      "<!-- never closed\n/locus run",
      "Text <!-- hidden\n/locus run -->",
      "Text <!--\n\n-->\n<!-- x\n/locus run\n-->",
    ])("%j", (body) => {
      expect(kind(body)).toBe("none");
    });

    it("finds the command after a closed comment", () => {
      expect(kind("<!--\nhidden\n-->\n/locus run")).toBe("command");
      expect(kind("<!-- one line -->\n/locus run")).toBe("command");
      expect(kind("Text <!-- a -->\n/locus run")).toBe("command");
    });

    it("treats `<!-->` as a complete comment, as CommonMark does", () => {
      expect(kind("Text <!-->\n/locus run")).toBe("command");
    });

    it("treats an unclosed inline comment opener as text", () => {
      expect(kind("Text <!-- no end\n/locus run")).toBe("command");
    });

    it("does not open a comment inside a code span", () => {
      expect(kind("Text `<!--`\n/locus run\n-->")).toBe("command");
    });
  });
});
