import { describe, expect, it } from "vitest";
import { codeBlock, tableCell } from "../../../lib/render/markdown.ts";
import { renderPullRequestBody } from "../../../lib/render/pull-request-body.ts";

const base = {
  issue: 12,
  summary: "Added a greeting.",
  filesChanged: [{ path: "src/greet.js", additions: 3, deletions: 1 }],
  toolCalls: [
    { name: "read_file", target: "src/greet.js", ok: true },
    { name: "run_shell", target: "npm test", ok: false },
  ],
  costUsd: 0.0123,
  usage: { inputTokens: 1000, cacheReadTokens: 10_000, cacheWriteTokens: 1000, outputTokens: 800 },
  model: "claude-sonnet-4-5",
};

describe("pull request body", () => {
  it("closes the issue, summarises, lists files and folds the tool log", () => {
    const body = renderPullRequestBody(base);
    expect(body.startsWith("<!-- locus:pr issue=12 -->\n\nCloses #12")).toBe(true);
    expect(body).toContain("## Summary\n\nAdded a greeting.");
    expect(body).toContain("| `src/greet.js` | +3 | −1 |");
    expect(body).toContain("<summary>Agent log (2 tool calls)</summary>");
    expect(body).toContain("✓ read_file src/greet.js\n✗ run_shell npm test");
    expect(body).toContain("12,000 in (10,000 from cache) / 800 out tokens · $0.0123");
  });

  it("names the PR it is stacked on and any notice", () => {
    const body = renderPullRequestBody({
      ...base,
      stackedOn: 11,
      notice: "Made by the offline replay model.",
    });
    expect(body).toContain("Stacked on #11");
    expect(body).toContain("> [!NOTE]\n> Made by the offline replay model.");
  });

  it("caps the tool log", () => {
    const toolCalls = Array.from({ length: 230 }, (_, i) => ({
      name: "read_file",
      target: `f${i}`,
      ok: true,
    }));
    const body = renderPullRequestBody({ ...base, toolCalls });
    expect(body).toContain("… 30 more calls not shown");
    expect(body).not.toContain("read_file f200");
  });
});

describe("markdown helpers", () => {
  it("fences text containing backticks safely", () => {
    expect(codeBlock("a ``` b")).toBe("````\na ``` b\n````");
  });
  it("keeps table rows intact", () => {
    expect(tableCell("a|b\nc")).toBe("a\\|b c");
  });
});
