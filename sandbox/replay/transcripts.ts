/**
 * Recorded agent transcripts for the demo's issues on the sample project
 * (sandbox/world/sample-project.ts). Each attempt is the model's side of a
 * conversation, one reply per turn; the tools really run in the worktree, so
 * the files change and `node --test` really passes. Every summary starts
 * with the replay notice, which is how each PR says it was not a live model.
 */
import { call, reply, say } from "../anthropic-fake/script.ts";
import type { FakeReply } from "../anthropic-fake/types.ts";

export const REPLAY_NOTICE =
  "Written by the sandbox's offline replay model (a recorded transcript, not a live Claude model).";

export interface Transcript {
  readonly name: string;
  /** Whether the first user message (the task prompt) is this transcript's task. */
  readonly matches: (prompt: string) => boolean;
  /** One list of replies per attempt; attempts past the last replay the last one. */
  readonly attempts: readonly (readonly FakeReply[])[];
}

export const DEMO_ISSUES = {
  capitalize: {
    title: "Add a capitalize helper",
    body: "Add `capitalize(text)`: upper-case the first letter and keep the rest. Export it from `src/index.js` and test it.",
  },
  words: {
    title: "Add a words function",
    body: "`words(text)` splits text into words on whitespace and punctuation, dropping empty pieces.",
  },
  slugEdges: {
    title: "slugify: no leading or trailing dashes",
    body: '`slugify("  Hello, World! ")` gives `-hello-world-`. It should give `hello-world`.',
  },
  shout: {
    title: "Add a shout helper",
    body: '`shout("hello")` gives `"HELLO!"`: upper-case, then one exclamation mark. Export it and test it.',
  },
  truncate: {
    title: "Add a truncate helper",
    body: "Add `truncate(text, length)` in `src/truncate.js` that shortens long text.",
  },
  docs: {
    title: "Document the API in the README",
    body: "List every exported function in the README with a one-line example.",
  },
} as const;

function finish(summary: string): FakeReply {
  return reply(call("finish", { summary: `${REPLAY_NOTICE}\n\n${summary}` }));
}

// An iterate prompt quotes the task's heading too; it belongs to the review transcripts.
const ITERATE_MARKER = "(your earlier work)";

function taskFor(title: string): (prompt: string) => boolean {
  const heading = new RegExp(`## Task: #\\d+ ${escape(title)}\\s`);
  return (prompt) => heading.test(prompt) && !prompt.includes(ITERATE_MARKER);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const testRun = reply(say("Running the tests."), call("run_shell", { command: "node --test" }));

const capitalize: Transcript = {
  name: "capitalize",
  matches: taskFor(DEMO_ISSUES.capitalize.title),
  attempts: [
    [
      reply(
        say("Let me see how the library exports its functions."),
        call("read_file", { path: "src/index.js" }),
      ),
      reply(
        call("write_file", {
          path: "src/capitalize.js",
          content: "export function capitalize(text) {\n  return text[0].toUpperCase() + text.slice(1);\n}\n",
        }),
      ),
      reply(
        call("write_file", {
          path: "test/capitalize.test.js",
          content:
            'import assert from "node:assert/strict";\nimport { test } from "node:test";\nimport { capitalize } from "../src/index.js";\n\ntest("upper-cases the first letter only", () => {\n  assert.equal(capitalize("hello world"), "Hello world");\n});\n',
        }),
      ),
      reply(
        call("edit_file", {
          path: "src/index.js",
          old_text: 'export { slugify } from "./slugify.js";\n',
          new_text:
            'export { capitalize } from "./capitalize.js";\nexport { slugify } from "./slugify.js";\n',
        }),
      ),
      testRun,
      finish(
        "Added `capitalize(text)` in `src/capitalize.js`, exported it, and tested it; `node --test` passes.",
      ),
    ],
  ],
};

const capitalizeReview: Transcript = {
  name: "capitalize (review)",
  matches: (prompt) => prompt.includes(ITERATE_MARKER) && prompt.includes("src/capitalize.js"),
  attempts: [
    [
      reply(
        say("The review is right: `text[0]` is undefined for an empty string."),
        call("read_file", { path: "src/capitalize.js" }),
      ),
      reply(
        call("edit_file", {
          path: "src/capitalize.js",
          old_text: "  return text[0].toUpperCase() + text.slice(1);",
          new_text: '  if (text === "") return "";\n  return text[0].toUpperCase() + text.slice(1);',
        }),
      ),
      reply(
        call("edit_file", {
          path: "test/capitalize.test.js",
          old_text: '  assert.equal(capitalize("hello world"), "Hello world");\n});\n',
          new_text:
            '  assert.equal(capitalize("hello world"), "Hello world");\n});\n\ntest("leaves an empty string alone", () => {\n  assert.equal(capitalize(""), "");\n});\n',
        }),
      ),
      testRun,
      reply(
        call("finish", {
          summary: `${REPLAY_NOTICE}\n\n\`capitalize\` now returns an empty string unchanged, with a test for it.`,
          threads: [
            {
              thread: "T1",
              addressed: true,
              note: "An empty string is now returned unchanged, with a test.",
            },
          ],
        }),
      ),
    ],
  ],
};

const words: Transcript = {
  name: "words",
  matches: taskFor(DEMO_ISSUES.words.title),
  attempts: [
    [
      reply(
        call("write_file", {
          path: "src/words.js",
          content:
            "export function words(text) {\n  return text.split(/[^\\p{L}\\p{N}]+/u).filter(Boolean);\n}\n",
        }),
      ),
      reply(
        call("write_file", {
          path: "test/words.test.js",
          content:
            'import assert from "node:assert/strict";\nimport { test } from "node:test";\nimport { words } from "../src/index.js";\n\ntest("splits on spaces and punctuation", () => {\n  assert.deepEqual(words("Hello, big  world!"), ["Hello", "big", "world"]);\n});\n',
        }),
      ),
      reply(
        call("edit_file", {
          path: "src/index.js",
          old_text: 'export { truncate } from "./truncate.js";\n',
          new_text: 'export { truncate } from "./truncate.js";\nexport { words } from "./words.js";\n',
        }),
      ),
      testRun,
      finish("Added `words(text)` (Unicode letters and digits), exported and tested."),
    ],
  ],
};

// The first attempt fixes the code, then the API refuses the next request: the task fails with
// its work saved on the wip branch, and the retry continues from it.
const slugEdges: Transcript = {
  name: "slugify edges",
  matches: taskFor(DEMO_ISSUES.slugEdges.title),
  attempts: [
    [
      reply(call("read_file", { path: "src/slugify.js" })),
      reply(
        call("edit_file", {
          path: "src/slugify.js",
          old_text: '  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");',
          new_text:
            '  return text\n    .toLowerCase()\n    .replace(/[^a-z0-9]+/g, "-")\n    .replace(/^-+|-+$/g, "");',
        }),
      ),
      {
        status: 400,
        body: {
          type: "error",
          error: {
            type: "invalid_request_error",
            message: "replay model: this task fails its first attempt on purpose",
          },
        },
      },
    ],
    [
      reply(
        say("The fix from the previous attempt is in place; adding the test it was missing."),
        call("read_file", { path: "src/slugify.js" }),
      ),
      reply(
        call("edit_file", {
          path: "test/slugify.test.js",
          old_text: '  assert.equal(slugify("Hello World"), "hello-world");\n});\n',
          new_text:
            '  assert.equal(slugify("Hello World"), "hello-world");\n});\n\ntest("drops leading and trailing dashes", () => {\n  assert.equal(slugify("  Hello, World! "), "hello-world");\n});\n',
        }),
      ),
      testRun,
      finish("`slugify` trims dashes at both ends; tested."),
    ],
  ],
};

const docs: Transcript = {
  name: "docs",
  matches: taskFor(DEMO_ISSUES.docs.title),
  attempts: [
    [
      reply(call("read_file", { path: "README.md" })),
      reply(
        call("edit_file", {
          path: "README.md",
          old_text: "Run the tests with `node --test`.\n",
          new_text: [
            "## API",
            "",
            '- `slugify(text)`: `slugify(" Hello, World! ")` → `"hello-world"`',
            '- `truncate(text, max)`: `truncate("abcdef", 4)` → `"abc…"`',
            '- `words(text)`: `words("Hello, big world")` → `["Hello", "big", "world"]`',
            "",
            "Run the tests with `node --test`.",
            "",
          ].join("\n"),
        }),
      ),
      finish("Documented the three exported functions in the README."),
    ],
  ],
};

// The first attempt forgets the exclamation mark and skips the tests: CI catches it.
const shout: Transcript = {
  name: "shout",
  matches: taskFor(DEMO_ISSUES.shout.title),
  attempts: [
    [
      reply(
        call("write_file", {
          path: "src/shout.js",
          content: "export function shout(text) {\n  return text.toUpperCase();\n}\n",
        }),
      ),
      reply(
        call("write_file", {
          path: "test/shout.test.js",
          content:
            'import assert from "node:assert/strict";\nimport { test } from "node:test";\nimport { shout } from "../src/index.js";\n\ntest("shouts", () => {\n  assert.equal(shout("hello"), "HELLO!");\n});\n',
        }),
      ),
      reply(
        call("edit_file", {
          path: "src/index.js",
          old_text: 'export { truncate } from "./truncate.js";\n',
          new_text: 'export { truncate } from "./truncate.js";\nexport { shout } from "./shout.js";\n',
        }),
      ),
      finish("Added `shout` with a test."),
    ],
  ],
};

// fix-ci on the shout PR: the failed step's log says what is missing.
const shoutCi: Transcript = {
  name: "shout-ci",
  matches: (prompt) =>
    prompt.includes("## CI failed on this pull request") && prompt.includes("src/shout.js"),
  attempts: [
    [
      reply(say("Reproducing the failure first."), call("run_shell", { command: "node --test" })),
      reply(
        call("edit_file", {
          path: "src/shout.js",
          old_text: "return text.toUpperCase();",
          new_text: 'return text.toUpperCase() + "!";',
        }),
      ),
      testRun,
      finish(
        "CI failed because `shout` left out the exclamation mark its test expects; it adds it now, and `node --test` passes.",
      ),
    ],
  ],
};

/** The task that asks: its first attempt stops with a question, its second continues with the answer. */
export const TRUNCATE_QUESTION =
  "When truncate cuts the text, should it end with an ellipsis (…), and does `length` count the ellipsis?";

const truncate: Transcript = {
  name: "truncate",
  matches: taskFor(DEMO_ISSUES.truncate.title),
  attempts: [
    [
      reply(
        say("Shortening is clear; what the cut looks like is not."),
        call("write_file", {
          path: "src/truncate.js",
          content: "export function truncate(text, length) {\n  return text.slice(0, length);\n}\n",
        }),
      ),
      reply(call("ask_user", { question: TRUNCATE_QUESTION })),
    ],
    [
      reply(
        say("The answer says: an ellipsis, counted in the length."),
        call("read_file", { path: "src/truncate.js" }),
      ),
      reply(
        call("write_file", {
          path: "src/truncate.js",
          content:
            'export function truncate(text, length) {\n  return text.length <= length ? text : text.slice(0, length - 1) + "…";\n}\n',
        }),
      ),
      reply(
        call("write_file", {
          path: "test/truncate.test.js",
          content:
            'import assert from "node:assert/strict";\nimport { test } from "node:test";\nimport { truncate } from "../src/truncate.js";\n\ntest("ends a cut with an ellipsis counted in the length", () => {\n  assert.equal(truncate("hello world", 6), "hello…");\n  assert.equal(truncate("hi", 6), "hi");\n});\n',
        }),
      ),
      testRun,
      finish("`truncate` ends a cut with an ellipsis that counts toward `length`, as answered, with a test."),
    ],
  ],
};

export const DEMO_TRANSCRIPTS: readonly Transcript[] = [
  shoutCi,
  capitalize,
  capitalizeReview,
  words,
  slugEdges,
  docs,
  shout,
  truncate,
];
