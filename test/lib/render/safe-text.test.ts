import { describe, expect, it } from "vitest";
import { isGitHubImage, safeToPublish } from "../../../lib/render/safe-text.ts";
import { taskCommitMessage } from "../../../lib/naming/commit.ts";
import { renderPullRequestBody } from "../../../lib/render/pull-request-body.ts";
import { liveMarkup } from "./live-markup.ts";

const JOINER = "\u2060";
const NOTHING_LIVE = { mentions: [], closings: [], outsideImages: [] };

const prInput = {
  issue: 7,
  summary: "Done.",
  filesChanged: [],
  toolCalls: [],
  costUsd: 0,
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
  model: "m",
};

describe("safeToPublish", () => {
  it("defuses user and team mentions, and the @ of an e-mail address (its autolink would end before a name)", () => {
    const out = safeToPublish("Thanks @alice and @acme/core; mail a@b.com@carol");
    expect(out).toContain(`@${JOINER}alice`);
    expect(out).toContain(`@${JOINER}acme/core`);
    expect(liveMarkup(out)).toEqual(NOTHING_LIVE);
  });

  it.each([
    "Fixes #12",
    "closes: #3",
    "Resolved acme/other#4",
    "fix https://github.com/acme/other/issues/5",
    "CLOSED #6",
    "*clo*ses #7",
    "**fix**es #8",
  ])("breaks the closing keyword in %s", (text) => {
    expect(liveMarkup(safeToPublish(text))).toEqual(NOTHING_LIVE);
  });

  it("keeps the outline: paragraphs, lists, headings, quotes and code", () => {
    const out = safeToPublish("# Done\n\nChanged `a.ts`:\n\n- one\n- two\n\n> quoted\n\n```js\nx = 1\n```");
    expect(out).toBe("# Done\n\nChanged `a.ts`:\n\n- one\n- two\n\n> quoted\n\n```js\nx = 1\n```");
  });

  it("leaves code as it is: GitHub neither links nor renders there", () => {
    const out = safeToPublish(
      "see `@alice fixes #1`\n\n```\n@bob closes #2 ![x](http://e/x)\n```\nthen @carol",
    );
    expect(out).toContain("`@alice fixes #1`");
    expect(out).toContain("```\n@bob closes #2 ![x](http://e/x)\n```");
    expect(out).toContain(`then @${JOINER}carol`);
    expect(liveMarkup(out)).toEqual(NOTHING_LIVE);
  });

  // Each of these got a mention, a closing keyword or an outside image past the old pattern-based filter.
  it.each([
    ["an escaped backtick", "\\`not code` @octocat fixes #1"],
    ["a code span across a blank line", "`a\n\n@octocat fixes #1 b`"],
    ["brackets in an image's alt text", "![chart [v2]](https://evil.example/c.png)"],
    ["alt text over two lines", "![chart\nv2](https://evil.example/c.png)"],
    ["a shortcut reference image", "![logo]\n\n[logo]: https://evil.example/l.png"],
    ["a collapsed reference image", "![logo][]\n\n[logo]: https://evil.example/l.png"],
    ["character references", "&#64;octocat &#x40;org/team &commat;x f&#105;xes #1"],
    [
      "HTML",
      '<img src="https://evil.example/x.png"> <picture><source srcset="https://evil.example/y"></picture>',
    ],
    ["HTML hiding a keyword", "<b>fix</b>es #1 and @<i>octocat</i>"],
  ])("keeps %s inert", (_name, text) => {
    expect(liveMarkup(safeToPublish(text))).toEqual(NOTHING_LIVE);
  });

  it("keeps links to web addresses as links, their text defused", () => {
    const out = safeToPublish(
      "See [`a.ts:3`](https://github.com/o/r/blob/s/a.ts#L3) and [fixes @x](https://e.example/y)",
    );
    expect(out).toContain("[`a.ts:3`](https://github.com/o/r/blob/s/a.ts#L3)");
    expect(out).toContain(`[f${JOINER}ixes @${JOINER}x](https://e.example/y)`);
    expect(liveMarkup(out)).toEqual(NOTHING_LIVE);
  });

  it("knows GitHub's image hosts", () => {
    expect(isGitHubImage("https://github.com/acme/x/assets/1")).toBe(true);
    expect(isGitHubImage("https://raw.githubusercontent.com/a/b/c.png")).toBe(true);
    expect(isGitHubImage("https://github.com.evil.example/x.png")).toBe(false);
    expect(isGitHubImage("http://github.com/x.png")).toBe(false);
  });

  it("caps what it reads and says so", () => {
    const out = safeToPublish("x".repeat(70_000));
    expect(out).toContain("[… cut: 4464 more characters not shown]");
  });
});

describe("a pull request body", () => {
  it("keeps only the task's own Closes #N and pings nobody", () => {
    const body = renderPullRequestBody({
      ...prInput,
      summary: "Fixes #12 too. cc @org/team ![t](https://evil.example/p.png)",
    });
    expect(liveMarkup(body)).toEqual({ ...NOTHING_LIVE, closings: ["Closes #7"] });
  });

  it("keeps a file name that holds backticks inside its code span", () => {
    const body = renderPullRequestBody({
      ...prInput,
      filesChanged: [{ path: "a` @octocat fixes #1 `b.txt", additions: 1, deletions: 0 }],
      toolCalls: [{ name: "write_file", target: "a` @octocat fixes #1 `b.txt", ok: true }],
      model: "@octocat fixes #2 ![x](https://evil.example/m.png)",
    });
    expect(body).toContain("``a` @octocat fixes #1 `b.txt``");
    expect(liveMarkup(body)).toEqual({ ...NOTHING_LIVE, closings: ["Closes #7"] });
  });
});

describe("a task's commit message", () => {
  it("closes nothing its issue title names", () => {
    const message = taskCommitMessage({ number: 7, title: "Crash; fixes #12 and @alice", labels: [] });
    expect(message).not.toMatch(/fixes #12/i);
    expect(message).not.toContain("@alice");
    expect(message.replaceAll("\u2060", "")).toBe("feat: Crash; fixes #12 and @alice (#7)");
  });

  it("keeps a conventional type that is also a keyword", () => {
    expect(taskCommitMessage({ number: 7, title: "Login", labels: ["type:bug"] })).toMatch(
      /^fix: Login \(#7\)$/,
    );
  });
});
