import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readStatusState, renderStatusComment } from "../../../lib/status/status-comment.ts";
import {
  codeSpan,
  failureNextStep,
  phaseView,
  toolActivity,
  type TaskPhase,
} from "../../../lib/status/task-phase.ts";

const CWD = "/tmp/worktrees/issue-7";

/** Code spans as CommonMark reads them: a backtick run, text, the same-length run; one space each side stripped. */
function codeSpans(line: string): string[] {
  const spans: string[] = [];
  let at = 0;
  while (at < line.length) {
    const open = /`+/g;
    open.lastIndex = at;
    const start = open.exec(line);
    if (!start) break;
    const fence = start[0];
    const close = new RegExp(`(?<!\`)${fence}(?!\`)`, "g");
    close.lastIndex = start.index + fence.length;
    const end = close.exec(line);
    if (!end) break;
    let text = line.slice(start.index + fence.length, end.index);
    if (text.length > 1 && text.startsWith(" ") && text.endsWith(" ")) text = text.slice(1, -1);
    spans.push(text);
    at = end.index + fence.length;
  }
  return spans;
}

/** The comment's visible parts: headline (without its label), the detail bullets, and the hidden state. */
function parse(body: string) {
  const lines = body.split("\n");
  const headline = /^\*\*Locus:\*\* (.*)$/.exec(lines[0] ?? "")?.[1] ?? "";
  const details = lines.filter((line) => line.startsWith("- ")).map((line) => line.slice(2));
  return { headline, details, state: readStatusState(body) };
}

function rendered(phase: TaskPhase) {
  return parse(renderStatusComment(phaseView(phase), { deliveries: [], attempts: 2 }));
}

describe("task phase in the status comment", () => {
  it("names the tool the agent is using, with its target as code and the turn", () => {
    const running = rendered({
      kind: "working",
      activity: toolActivity("run_shell", { command: "npm test" }, CWD),
      turn: 7,
    });
    expect(running.headline).toBe("Working — running `npm test` (turn 7)");
    expect(codeSpans(running.headline)).toEqual(["npm test"]);
    expect(running.state.attempts).toBe(2);

    const editing = rendered({
      kind: "working",
      activity: toolActivity("Edit", { file_path: `${CWD}/src/a.ts`, old_string: "a" }, CWD),
    });
    expect(editing.headline).toBe("Working — editing `src/a.ts`");
    expect(rendered({ kind: "working" }).headline).toBe("Working — getting started.");
  });

  it("maps every provider's tools to an activity", () => {
    const cases: [string, Record<string, unknown>, string, string | undefined][] = [
      ["read_file", { path: "src/a.ts" }, "reading", "src/a.ts"],
      ["Read", { file_path: `${CWD}/README.md` }, "reading", "README.md"],
      ["write_file", { path: "b.ts", content: "x" }, "writing", "b.ts"],
      ["Bash", { command: "npm run lint", description: "Lint" }, "running", "npm run lint"],
      ["edit_file", { paths: [`${CWD}/a.ts`, "b.ts"] }, "editing", "a.ts, b.ts"],
      ["search_text", { pattern: "TODO" }, "searching for", "TODO"],
      ["Grep", { pattern: "greet" }, "searching for", "greet"],
      ["list_files", { glob: "src/**/*.ts" }, "listing files", "src/**/*.ts"],
      ["list_files", {}, "listing files", undefined],
      ["finish", { summary: "done" }, "wrapping up", undefined],
      ["github.search", {}, "using", "github.search"],
    ];
    for (const [tool, params, verb, target] of cases) {
      expect(toolActivity(tool, params, CWD)).toEqual(target === undefined ? { verb } : { verb, target });
    }
  });

  it("keeps any target on one line inside one code span, cut to a glance", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }).filter((raw) => raw.trim() !== ""),
        (raw) => {
          const span = codeSpan(raw);
          const expected = raw.replace(/\s+/g, " ").trim();
          const spans = codeSpans(`x ${span} y`);
          expect(span).not.toContain("\n");
          expect(spans).toHaveLength(1);
          if (expected.length <= 80) expect(spans[0]).toBe(expected);
          else expect(spans[0]).toBe(`${expected.slice(0, 79)}…`);
        },
      ),
    );
    expect(codeSpans(codeSpan("echo `date`"))).toEqual(["echo `date`"]);
    expect(codeSpans(codeSpan("`x`"))).toEqual(["`x`"]);
  });

  it("shows a failure's reason and what to do next, and an open PR", () => {
    const failed = rendered({
      kind: "failed",
      reason: "stopped after 40 turns (max turns) before finishing",
      nextStep: failureNextStep("locus/wip/issue-7"),
    });
    expect(failed.headline).toBe("Failed: stopped after 40 turns (max turns) before finishing");
    expect(failed.details).toHaveLength(1);
    expect(failed.details[0]).toMatch(/^\*\*What to do:\*\* /);
    expect(codeSpans(failed.details[0] ?? "")).toEqual(["locus/wip/issue-7", "/locus run"]);
    expect(codeSpans(failureNextStep(undefined))).toEqual(["/locus run"]);

    expect(rendered({ kind: "pr-open", pr: 45 }).headline).toBe("Pull request #45 is ready for review.");
    expect(rendered({ kind: "queued" }).headline).toBe("Queued.");
    expect(rendered({ kind: "working", activity: { verb: "using", target: " " } }).headline).toBe(
      "Working — using",
    );
  });
});

describe("a waiting task's questions", () => {
  it("are cut before they are made safe, so a code span cut open pings nobody", () => {
    const question = `${"x".repeat(287)} \`a @octocat span that runs on\``;
    const [line] = phaseView({ kind: "waiting", questions: [question] }).details ?? [];
    expect(line).toEqual({ label: "Question", line: `${"x".repeat(287)} \\\`a @\u2060octocat…` });
  });
});
