/**
 * The 20-turn replay task the sandbox benchmark times: a small JavaScript package and a scripted
 * model that works on it the way a coding agent does — looks around, runs the tests, edits, checks
 * an edit with `node -e`, adds a test, runs the tests again, reviews the diff, finishes. Pure data,
 * so the same task replays identically with the sandbox on and off, and a unit test can hold its
 * shape (turn count, the commands it runs, edits that apply to the files it starts from).
 */
import { call, reply, say } from "../../sandbox/anthropic-fake/script.ts";
import type { FakeResponse } from "../../sandbox/anthropic-fake/types.ts";

/** The worktree each replay starts from, path → content. */
export const REPLAY_FILES: Readonly<Record<string, string>> = {
  "package.json": '{\n  "name": "tally",\n  "type": "module",\n  "scripts": { "test": "node --test" }\n}\n',
  "src/add.js": "export function add(a, b) {\n  return a + b;\n}\n",
  "src/format.js": 'export function format(total) {\n  return "total: " + total;\n}\n',
  "test/add.test.js": [
    'import test from "node:test";',
    'import assert from "node:assert/strict";',
    'import { add } from "../src/add.js";',
    "",
    'test("adds two numbers", () => assert.equal(add(2, 3), 5));',
    "",
  ].join("\n"),
  "README.md": "# tally\n\nAdds numbers.\n",
};

const SUM_TEST = [
  'import test from "node:test";',
  'import assert from "node:assert/strict";',
  'import { sum } from "../src/add.js";',
  "",
  'test("sums a list", () => assert.equal(sum([1, 2, 3]), 6));',
  'test("sums nothing to zero", () => assert.equal(sum([]), 0));',
  "",
].join("\n");

/** One turn per entry; the last calls `finish`. */
const TURNS: readonly FakeResponse[] = [
  reply(say("Let me look at the repository first."), call("list_files", {})),
  reply(call("read_file", { path: "package.json" })),
  reply(call("read_file", { path: "src/add.js" })),
  reply(call("read_file", { path: "test/add.test.js" })),
  reply(say("Running the tests before changing anything."), call("run_shell", { command: "node --test" })),
  reply(call("search_text", { pattern: "add(" })),
  reply(call("run_shell", { command: "true" })),
  reply(
    call("edit_file", {
      path: "src/add.js",
      old_text: "  return a + b;\n}\n",
      new_text: "  return a + b;\n}\n\nexport function sum(values) {\n  return values.reduce(add, 0);\n}\n",
    }),
  ),
  reply(
    call("run_shell", {
      command: `node -e 'import("./src/add.js").then((m) => console.log(m.sum([1, 2, 3])))'`,
    }),
  ),
  reply(call("write_file", { path: "test/sum.test.js", content: SUM_TEST })),
  reply(call("run_shell", { command: "node --test" })),
  reply(call("read_file", { path: "src/format.js" })),
  reply(
    call("edit_file", {
      path: "src/format.js",
      old_text: '  return "total: " + total;',
      new_text: '  return `total: ${total.toLocaleString("en-US")}`;',
    }),
  ),
  reply(
    call("run_shell", {
      command: `node -e 'import("./src/format.js").then((m) => console.log(m.format(1234)))'`,
    }),
  ),
  reply(call("search_text", { pattern: "total" })),
  reply(
    call("edit_file", {
      path: "README.md",
      old_text: "Adds numbers.\n",
      new_text: "Adds numbers: `add(a, b)` and `sum(list)`.\n",
    }),
  ),
  reply(call("run_shell", { command: "node --test" })),
  reply(call("run_shell", { command: "git diff --stat" })),
  reply(call("read_file", { path: "src/add.js" })),
  reply(call("finish", { summary: "Added sum(), its tests, and thousands separators in format()." })),
];

export function replayScript(): FakeResponse[] {
  return [...TURNS];
}
