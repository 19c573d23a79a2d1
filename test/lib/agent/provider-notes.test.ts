import { describe, expect, it } from "vitest";
import { unreachedHooksWarning } from "../../../lib/agent/provider-notes.ts";

const hooks = [
  { when: "after-edit", command: "npx prettier --write {path}" },
  { when: "before-command", command: "./audit {command}" },
  { when: "after-edit", files: "*.md", command: "true" },
] as const;

describe("unreachedHooksWarning", () => {
  it("warns for Claude Code and Codex, which run their own tools, naming the hook kinds once each", () => {
    expect(unreachedHooksWarning("claude-code", hooks)).toBe(
      "agent.hooks (after-edit, before-command) will not run: claude-code writes files and runs commands itself, outside Locus's tool boundary. Hooks run with provider builtin or acp.",
    );
    expect(unreachedHooksWarning("codex", hooks)).toContain("codex writes files");
  });

  it("says nothing for the providers hooks reach, or when no hook is configured", () => {
    expect(unreachedHooksWarning("builtin", hooks)).toBeUndefined();
    expect(unreachedHooksWarning("acp", hooks)).toBeUndefined();
    expect(unreachedHooksWarning("codex", [])).toBeUndefined();
  });
});
