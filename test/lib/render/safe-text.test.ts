import { describe, expect, it } from "vitest";
import { isGitHubImage, safeToPublish } from "../../../lib/render/safe-text.ts";
import { taskCommitMessage } from "../../../lib/naming/commit.ts";
import { renderPullRequestBody } from "../../../lib/render/pull-request-body.ts";

const JOINER = "\u2060";

describe("safeToPublish", () => {
  it("defuses user and team mentions, not email addresses", () => {
    expect(safeToPublish("Thanks @alice and @acme/core; mail a@b.com")).toBe(
      `Thanks @${JOINER}alice and @${JOINER}acme/core; mail a@b.com`,
    );
  });

  it.each([
    "Fixes #12",
    "closes: #3",
    "Resolved acme/other#4",
    "fix https://github.com/acme/other/issues/5",
    "CLOSED #6",
  ])("breaks the closing keyword in %s", (text) => {
    const out = safeToPublish(text);
    expect(out).not.toMatch(/\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s*(?:[\w.-]+\/[\w.-]+)?#\d/i);
    expect(out).not.toMatch(/\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+https:/i);
    expect(out.replaceAll(JOINER, "")).toBe(text);
  });

  it("leaves prose that closes nothing alone", () => {
    expect(safeToPublish("I fixed the bug in #5's code")).toBe("I fixed the bug in #5's code");
  });

  it("removes images not served by GitHub, keeping GitHub's own", () => {
    const out = safeToPublish(
      '![a](https://evil.example/x.png?t=1) ![b](https://user-images.githubusercontent.com/1.png) <img src="http://evil/y"> ![c][r]',
    );
    expect(out).toBe(
      "[image removed: a] ![b](https://user-images.githubusercontent.com/1.png) [image removed] [image removed: c]",
    );
  });

  it("leaves code spans and fenced blocks as they are", () => {
    const text = "see `@alice fixes #1`\n\n```\n@bob closes #2 ![x](http://e/x)\n```\nthen @carol";
    expect(safeToPublish(text)).toBe(text.replace("then @carol", `then @${JOINER}carol`));
  });

  it("knows GitHub's image hosts", () => {
    expect(isGitHubImage("https://github.com/acme/x/assets/1")).toBe(true);
    expect(isGitHubImage("https://raw.githubusercontent.com/a/b/c.png")).toBe(true);
    expect(isGitHubImage("https://github.com.evil.example/x.png")).toBe(false);
    expect(isGitHubImage("http://github.com/x.png")).toBe(false);
  });
});

describe("a pull request body", () => {
  it("keeps only the task's own Closes #N and pings nobody", () => {
    const body = renderPullRequestBody({
      issue: 7,
      summary: "Fixes #12 too. cc @org/team ![t](https://evil.example/p.png)",
      filesChanged: [],
      toolCalls: [],
      costUsd: 0,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      model: "m",
    });
    const closing = [...body.matchAll(/\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d+)/gi)].map(
      (m) => m[1],
    );
    expect(closing).toEqual(["7"]);
    expect(body).not.toMatch(/@org/);
    expect(body).not.toContain("evil.example");
  });
});

describe("a task's commit message", () => {
  it("closes nothing its issue title names", () => {
    const message = taskCommitMessage({ number: 7, title: "Crash; fixes #12 and @alice", labels: [] });
    expect(message).not.toMatch(/fixes #12/i);
    expect(message).not.toContain("@alice");
    expect(message.replaceAll("\u2060", "")).toBe("feat: Crash; fixes #12 and @alice (#7)");
  });
});
