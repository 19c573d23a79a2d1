/**
 * The provider a run uses comes from config `agent.provider`, and the Action's `provider` input
 * overrides it: the bundled Action, with a fake Claude Code CLI on PATH and the scripted ACP agent.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { installFakeCli } from "../lib/agent/runners/fake-cli.ts";
import { PROJECT_FILES, startHarness, type ActionProcess, type Harness } from "./harness.ts";

const AGENT = join(import.meta.dirname, "..", "lib", "agent", "runners", "fixtures", "scripted-acp-agent.ts");

let h: Harness;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "locus-providers-"));
  const acpCommand = JSON.stringify([process.execPath, AGENT, "work", join(scratch, "acp-log.json")]);
  h = await startHarness({
    ...PROJECT_FILES,
    // The fake CLI records its stdin and arguments in its own directory, which the sandbox keeps
    // read-only; the CLI inside the sandbox is covered by the sandbox's own tests.
    ".github/locus-claude.yml":
      "version: 3\nagent:\n  provider: claude-code\n  hooks:\n    - when: after-edit\n      command: 'true {path}'\n    - when: before-command\n      command: 'true {command}'\nsandbox:\n  mode: off\n",
    // The scripted agent is a TypeScript file of this repository, which the sandbox does not mount,
    // and writes its log outside the worktree: these runs test the protocol through the Action; the
    // agent inside the sandbox is covered by test/lib/sandbox/acp-agent-sandbox.test.ts.
    ".github/locus-acp.yml": `version: 3\nagent:\n  provider: acp\n  acp:\n    command: ${acpCommand}\nsandbox:\n  mode: off\n`,
    ".github/locus-acp-missing.yml": "version: 3\nagent:\n  provider: acp\n",
    ".github/locus-acp-unreported.yml": `version: 3\nagent:\n  provider: acp\n  acp:\n    command: ${JSON.stringify([process.execPath, AGENT, "unreported", join(scratch, "unreported-log.json")])}\nsandbox:\n  mode: off\n`,
    ".github/locus-acp-cancel.yml": `version: 3\nagent:\n  provider: acp\n  acp:\n    command: ${JSON.stringify([process.execPath, AGENT, "edit-then-cancel", join(scratch, "cancel-log.json")])}\nsandbox:\n  mode: off\n`,
  });
}, 60_000);

afterAll(async () => {
  await h.close();
  await rm(scratch, { recursive: true, force: true });
});

async function queued(title: string) {
  return h.api.createIssue({ title, body: "Greet more warmly.", labels: ["locus:queued"] });
}

/** Resolves when the Action has printed `text` (its own log, not a timer). */
function printed(action: ActionProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!action.stdout().includes(text)) return;
      action.child.stdout?.off("data", check);
      resolve();
    };
    action.child.stdout?.on("data", check);
    check();
  });
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

  it("delivers a pull request from an ACP agent, its tool calls in the PR's log", async () => {
    const issue = await queued("Warmer greeting over ACP");

    const run = await h.run({
      mode: "issue",
      issue: String(issue.number),
      "config-path": ".github/locus-acp.yml",
    });

    expect(run.stderr).toBe("");
    expect(run.outputs["status"]).toBe("succeeded");
    expect(await h.show(`locus/issue-${issue.number}`, "src/greet.js")).toContain('"Hello there, "');
    const pr = await h.api.getPullRequest(Number(run.outputs["pr-number"]));
    // As a reader sees it: Locus puts an invisible word joiner inside every closing keyword it publishes.
    expect(pr?.body.replaceAll("\u2060", "")).toContain("Greeting fixed: it now says hello there.");
    expect(pr?.body).toContain("✓ edit_file src/greet.js");
    expect(run.summary).toContain("Plan: 0/2 done");
    expect(run.outputs["cost-usd"]).toBe("0.2500");
    const log = JSON.parse(await readFile(join(scratch, "acp-log.json"), "utf8")) as Record<string, unknown>;
    expect(String(log["prompt"])).toContain("Warmer greeting over ACP");
    expect(log["output"]).toBe("checked\nsecret=\n");
  });

  it("says on the issue that provider acp needs agent.acp.command", async () => {
    const issue = await queued("Nothing configured");

    const run = await h.run({
      mode: "issue",
      issue: String(issue.number),
      "config-path": ".github/locus-acp-missing.yml",
    });

    expect(run.outputs["status"]).toBe("failed");
    const comments = (await h.api.getIssue(issue.number))?.comments ?? [];
    expect(comments.map((comment) => comment.body).join("\n")).toContain(
      "provider acp needs agent.acp.command in .github/locus.yml",
    );
  });

  it("stops an ACP agent that reports no cost under the default cost limit, saves its edit and says how to price it", async () => {
    const issue = await queued("Unmetered over ACP");

    const run = await h.run({
      mode: "issue",
      issue: String(issue.number),
      "config-path": ".github/locus-acp-unreported.yml",
    });

    expect(run.outputs["status"]).toBe("failed");
    expect(await h.show(`locus/wip/issue-${issue.number}`, "src/greet.js")).toContain('"Hello there, "');
    const failure = (await h.api.getIssue(issue.number))?.comments.find((comment) =>
      comment.body.startsWith("**Locus could not finish this task:**"),
    );
    expect(failure?.body).toContain(
      "it was stopped because its cost could not be counted: the agent reported no cost (ACP usage_update in USD) in its first 3 tool calls, so Locus could not hold it to the cost limit of $5.00.",
    );
    expect(failure?.body).toContain("`agent.acp.costPerToolCallUsd`");
  });

  it("on SIGTERM cancels the ACP session, saves the agent's edit on the wip branch and says why", async () => {
    const issue = await queued("Cancelled over ACP");

    const action = await h.start({
      mode: "issue",
      issue: String(issue.number),
      "config-path": ".github/locus-acp-cancel.yml",
    });
    await printed(action, "✓ Edit src/greet.js");
    action.child.kill("SIGTERM");
    const run = await action.done;

    expect(run.outputs["status"]).toBe("failed");
    expect(await h.show(`locus/wip/issue-${issue.number}`, "src/greet.js")).toContain('"Hello there, "');
    const log = JSON.parse(await readFile(join(scratch, "cancel-log.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(log["cancelled"]).toBe(true);
    const failure = (await h.api.getIssue(issue.number))?.comments.find((comment) =>
      comment.body.startsWith("**Locus could not finish this task:**"),
    );
    expect(failure?.body).toContain("cancelled");
  });
});
