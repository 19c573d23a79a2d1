import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runShellTool } from "../../../../lib/agent/tools/run-shell.ts";
import { createWorktree, type TestWorktree } from "./worktree.ts";

let worktree: TestWorktree;
beforeEach(async () => {
  worktree = await createWorktree();
});
afterEach(() => worktree.cleanup());

describe("command hooks around run_shell", () => {
  it("runs matching before and after hooks with the command shell-quoted and appends their output", async () => {
    const context = worktree.context({
      hooks: [
        {
          when: "before-command",
          commands: "echo *",
          command: "printf 'before %s\\n' {command} >> audit.log",
        },
        { when: "after-command", command: "echo after {command}; cat audit.log" },
        { when: "before-command", commands: "npm *", command: "echo never" },
      ],
    });
    const result = await runShellTool.run({ command: `echo "it's fine"` }, context);

    expect(result.isError).toBe(false);
    expect(result.content).toMatch(/^it's fine\n\[exit code 0\]\n\n/);
    expect(await worktree.read("audit.log")).toBe(`before echo "it's fine"\n`);
    expect(result.content).toContain(
      `before-command hook \`printf 'before %s\\n' 'echo "it'\\''s fine"' >> audit.log\` → exit 0`,
    );
    expect(result.content).toContain(
      `after-command hook \`echo after 'echo "it'\\''s fine"'; cat audit.log\` → exit 0\nafter echo "it's fine"\nbefore echo "it's fine"`,
    );
    expect(result.content).not.toContain("never");
  });

  it("matches a pattern against any part of a chained command, as a deny pattern does", async () => {
    const context = worktree.context({
      hooks: [{ when: "after-command", commands: "npm *", command: "echo npm ran" }],
    });
    const chained = await runShellTool.run({ command: "true && npm --version >/dev/null || true" }, context);
    const other = await runShellTool.run({ command: "echo npm" }, context);

    expect(chained.content).toContain("npm ran");
    expect(other.content).not.toContain("npm ran");
  });

  it("refuses the command when a before-command hook fails, with the hook's output", async () => {
    const context = worktree.context({
      hooks: [
        {
          when: "before-command",
          commands: "rm *",
          command: "echo 'no deleting here:' {command} >&2; exit 3",
        },
        { when: "after-command", command: "echo after ran" },
      ],
    });
    const result = await runShellTool.run({ command: "rm -rf src && touch removed" }, context);

    expect(result.isError).toBe(true);
    expect(result.summary).toBe("Bash rm -rf src && touch removed → refused by a hook");
    expect(result.content).toContain("A before-command hook refused this command, so it was not run.");
    expect(result.content).toContain("→ exit 3\nno deleting here: rm -rf src && touch removed");
    expect(result.content).not.toContain("after ran");
    await expect(worktree.read("removed")).rejects.toThrow();
  });

  it("reports a failing after-command hook without changing the command's own result", async () => {
    const context = worktree.context({
      hooks: [{ when: "after-command", command: "echo 'lint: 2 warnings'; exit 1" }],
    });
    const result = await runShellTool.run({ command: "echo built" }, context);

    expect(result.isError).toBe(false);
    expect(result.summary).toBe("Bash echo built → exit 0");
    expect(result.content).toContain(
      "after-command hook `echo 'lint: 2 warnings'; exit 1` → exit 1\nlint: 2 warnings",
    );
  });

  it("leaves edit hooks out of commands and command hooks out of edits", async () => {
    const context = worktree.context({
      hooks: [{ when: "after-edit", command: "echo edit hook" }],
    });
    const result = await runShellTool.run({ command: "echo plain" }, context);

    expect(result.content).toBe("plain\n[exit code 0]");
  });
});
