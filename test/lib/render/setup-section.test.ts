import { describe, expect, it } from "vitest";
import {
  SETUP_FAILURE_TAIL_LINES,
  setupFailureSection,
  setupRanLine,
} from "../../../lib/render/setup-section.ts";
import { root } from "../../../lib/render/tree/nodes.ts";
import { toGitHubMarkdown } from "../../../lib/render/tree/serialize.ts";

describe("setupRanLine", () => {
  it("says which commands run and where they came from, as the status comment's Setup detail", () => {
    const line = setupRanLine({ source: "default", commands: ["npm ci"], networkAllow: [] });
    expect(line).toBe("`npm ci` (the default for the lockfile found)");
    const configured = setupRanLine({
      source: "configured",
      commands: ["make deps", "make gen"],
      networkAllow: [],
    });
    expect(configured).toBe("`make deps`, `make gen` (from `setup.commands`)");
  });

  it("says nothing when no setup ran", () => {
    expect(setupRanLine({ source: "none", commands: [], networkAllow: [] })).toBeUndefined();
  });
});

describe("setupFailureSection", () => {
  it("names the command and shows the end of its output in a fence its content cannot close", () => {
    const logTail = [...Array.from({ length: 100 }, (_, i) => `line ${i}`), "```", "@octocat closes #1"].join(
      "\n",
    );
    const markdown = toGitHubMarkdown(
      root(...setupFailureSection({ command: "npm ci `x`", exitCode: 1, timedOut: false, logTail })),
    );
    expect(markdown.split("\n")[0]).toBe(
      "**Setup failed** before the agent started: `` npm ci `x` `` exited with 1.",
    );
    expect(markdown).not.toContain("line 0\n");
    expect(markdown).toContain("@octocat closes #1");
    const fence = /^(`{4,})\n/m.exec(markdown)?.[1];
    expect(fence).toBeDefined();
    expect(markdown.trimEnd().endsWith(fence ?? "")).toBe(true);
    expect(markdown.split("\n").filter((l) => l.startsWith("line ")).length).toBe(
      SETUP_FAILURE_TAIL_LINES - 2,
    );
  });

  it("says a timeout, and shows no empty block for a command that printed nothing", () => {
    const markdown = toGitHubMarkdown(
      root(...setupFailureSection({ command: "sleep 999", exitCode: 143, timedOut: true, logTail: "" })),
    );
    expect(markdown).toBe("**Setup failed** before the agent started: `sleep 999` timed out.");
  });
});
