/**
 * The provider a run uses comes from config `agent.provider`, and the Action's `provider` input
 * overrides it: the bundled Action, with a fake Claude Code CLI on PATH. These stay with the bundle
 * because the choice is made by the Action's entry from its inputs, the CLI is found on the
 * process's PATH, and what is checked is the Action's own stdout and job summary. A task run by an
 * ACP agent (delivered, misconfigured, unmetered, cancelled) is in process:
 * test/lib/agent/runners/acp-task.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { installFakeCli } from "../lib/agent/runners/fake-cli.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    ...PROJECT_FILES,
    // The fake CLI records its stdin and arguments in its own directory, which the sandbox keeps
    // read-only; the CLI inside the sandbox is covered by the sandbox's own tests.
    ".github/locus-claude.yml":
      "version: 3\nagent:\n  provider: claude-code\n  hooks:\n    - when: after-edit\n      command: 'true {path}'\n    - when: before-command\n      command: 'true {command}'\nsandbox:\n  mode: off\n",
  });
}, 60_000);

afterAll(async () => {
  await h.close();
});

async function queued(title: string) {
  return h.api.createIssue({ title, body: "Greet more warmly.", labels: ["locus:queued"] });
}

describe("provider selection", () => {
  it("runs Claude Code when the config file says agent.provider: claude-code", async () => {
    const issue = await queued("Warmer greeting with Claude Code");
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-stream.jsonl",
      cwd: h.dir,
    });
    const before = h.fake.requests.length;

    const run = await h.run(
      { mode: "issue", issue: String(issue.number), "config-path": ".github/locus-claude.yml" },
      { PATH: cli.path },
    );

    expect(run.stdout).toContain("Agent provider: claude-code (.github/locus-claude.yml)");
    expect(run.stdout).toContain("Note: claude-code cannot ask a question and wait for the answer");
    const unreached =
      "agent.hooks (after-edit, before-command) will not run: claude-code writes files and runs commands itself";
    expect(run.stdout.split(unreached)).toHaveLength(2);
    expect(run.summary).toContain(`**Warning:** ${unreached}`);
    expect(await cli.stdin()).toContain("Warmer greeting with Claude Code");
    expect((await cli.args()).slice(0, 4)).toEqual(["-p", "--output-format", "stream-json", "--verbose"]);
    expect(h.fake.requests.length).toBe(before);
    // The fake CLI only reports edits; it makes none, so the task ends with nothing to deliver.
    expect(run.outputs["status"]).toBe("no-changes");
  });

  it("lets the provider input override the config file", async () => {
    const issue = await queued("Warmer greeting, built in");
    const cli = await installFakeCli({ name: "claude", version: "2.1.3 (Claude Code)", cwd: h.dir });
    h.fake.setScript([
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
      reply(call("finish", { summary: "Greeting now says Hi." })),
    ]);
    const before = h.fake.requests.length;

    const run = await h.run(
      {
        mode: "issue",
        issue: String(issue.number),
        "config-path": ".github/locus-claude.yml",
        provider: "builtin",
      },
      { PATH: cli.path },
    );

    expect(run.stdout).toContain("Agent provider: builtin (provider input)");
    expect(run.stdout).not.toContain("will not run");
    expect(run.outputs["status"]).toBe("succeeded");
    expect(h.fake.requests.length).toBe(before + 2);
    await expect(cli.args()).rejects.toThrow();
  });
});
