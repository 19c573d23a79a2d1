/**
 * The small project every scenario's repository starts with, whether the Action runs as a bundle
 * (test/action/harness.ts) or in process (test/fakes/task-world.ts), so both tell the same story.
 */
export const PROJECT_FILES: Readonly<Record<string, string>> = {
  "README.md": "# widgets\n",
  "src/greet.js": 'export function greet(name) {\n  return "Hello, " + name;\n}\n',
  "AGENTS.md": "Keep functions small.\n",
};

/** The project with a `node --test` suite, for CI that can fail and a fix that makes it pass. */
export const NODE_TEST_PROJECT_FILES: Readonly<Record<string, string>> = {
  ...PROJECT_FILES,
  "package.json": '{ "name": "widgets", "type": "module" }\n',
  "test/greet.test.js": [
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    'import { greet } from "../src/greet.js";',
    'test("greets", () => assert.equal(greet("Ada"), "Hello, Ada"));',
    "",
  ].join("\n"),
};

/** git's environment for the person who edits the project in a test's own clone: their name, an empty HOME (no global config). */
export function personGitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "",
    HOME: home,
    GIT_AUTHOR_NAME: "Dana Developer",
    GIT_AUTHOR_EMAIL: "dana@example.com",
    GIT_COMMITTER_NAME: "Dana Developer",
    GIT_COMMITTER_EMAIL: "dana@example.com",
  };
}
