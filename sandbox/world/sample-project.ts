/**
 * The project the sandbox's repository starts with: `strkit`, a tiny string
 * library with real `node --test` tests, so the agent's edits are checked by
 * running them. Kept as strings (not files under sandbox/) so the project's
 * own lint, type check and test globs never pick the sample up.
 */
import { callerWorkflowFiles } from "./caller-workflow.ts";

const staleWorkflow = `name: Locus stale sweep
on:
  schedule:
    - cron: "17,47 * * * *"
  workflow_dispatch:
permissions:
  id-token: write
  contents: read
  actions: write
jobs:
  sweep:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8 # v5.0.0
        with:
          persist-credentials: false
      - uses: locus-dev/locus@v1
        with:
          mode: stale
          app-url: \${{ vars.LOCUS_APP_URL }}
`;

export const SAMPLE_PROJECT: Readonly<Record<string, string>> = {
  "README.md": `# strkit

Small string helpers.

\`\`\`js
import { slugify, truncate } from "strkit";
slugify("Hello World"); // "hello-world"
truncate("abcdef", 4); // "abc…"
\`\`\`

Run the tests with \`node --test\`.
`,
  "AGENTS.md": `# Working on strkit

- ES modules, no dependencies, one function per file under \`src/\`, re-exported from \`src/index.js\`.
- Every function has tests in \`test/<name>.test.js\` using \`node:test\` and \`node:assert/strict\`.
- Run \`node --test\` before finishing; all tests must pass.
`,
  "package.json": `{
  "name": "strkit",
  "version": "0.1.0",
  "type": "module",
  "main": "src/index.js",
  "scripts": { "test": "node --test" }
}
`,
  "src/index.js": `export { slugify } from "./slugify.js";
export { truncate } from "./truncate.js";
`,
  "src/slugify.js": `export function slugify(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}
`,
  "src/truncate.js": `export function truncate(text, max) {
  if (text.length <= max) return text;
  return text.slice(0, max - 1) + "…";
}
`,
  "test/slugify.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { slugify } from "../src/index.js";

test("lower-cases and joins words with dashes", () => {
  assert.equal(slugify("Hello World"), "hello-world");
});
`,
  "test/truncate.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { truncate } from "../src/index.js";

test("keeps short text", () => {
  assert.equal(truncate("abc", 5), "abc");
});

test("cuts long text with an ellipsis", () => {
  assert.equal(truncate("abcdef", 4), "abc…");
});
`,
  ...callerWorkflowFiles(),
  ".github/workflows/locus-stale.yml": staleWorkflow,
};
