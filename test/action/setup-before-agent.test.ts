import { readdir } from "node:fs/promises";
import { join } from "node:path";
/**
 * Setup before the agent, through the bundled Action: the repository's `setup.commands` run in
 * the task's worktree (inside the sandbox where the machine has one) before the first model call;
 * the agent starts from what they left and is told what ran; a failing command fails the task
 * with the command and the end of its output, and no model is asked. With a private registry,
 * setup installs a package through the egress proxy, which adds the registry's credential, the
 * agent's test then loads it, and the credential is nowhere Locus writes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startPrivateRegistry, type PrivateRegistry } from "../../sandbox/world/private-registry.ts";
import { configForThisMachine, describeWithSandbox } from "../needs-bubblewrap.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";

const SECRET = "npm_setupRegistrySecret0123456789ab";
const PACKAGE = "@locus-test/private-dep";
let registry: PrivateRegistry;
let h: Harness;

const SETUP = [
  "mkdir -p node_modules/made-by-setup",
  "printf 'module.exports = \"ready\";\\n' > node_modules/made-by-setup/index.js",
];

beforeAll(async () => {
  registry = await startPrivateRegistry({
    authorization: `Bearer ${SECRET}`,
    packageName: PACKAGE,
    main: 'module.exports = "from the private registry";\n',
  });
  const setupConfig = [
    "version: 3",
    "setup:",
    "  commands:",
    ...SETUP.map((command) => `    - ${JSON.stringify(command)}`),
    "",
  ].join("\n");
  const failingConfig =
    'version: 3\nsetup:\n  commands:\n    - "echo boom from setup; exit 3"\n    - "echo never runs"\n';
  // No proxy bypass for loopback in this command: the request must go through the proxy that adds the token.
  const install = `NO_PROXY= no_proxy= npm install --no-audit --no-fund --registry ${registry.url}/ ${PACKAGE}`;
  const registryConfig = [
    "version: 3",
    "setup:",
    "  commands:",
    `    - ${JSON.stringify(install)}`,
    "sandbox:",
    "  network:",
    "    credentials:",
    `      "127.0.0.1:${registry.port}": NPM_TOKEN`,
    "",
  ].join("\n");
  h = await startHarness({
    ...PROJECT_FILES,
    ".github/locus.yml": configForThisMachine(setupConfig),
    ".github/locus-failing-setup.yml": configForThisMachine(failingConfig),
    ".github/locus-registry.yml": registryConfig,
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await registry?.close();
});

describe("setup before the agent", () => {
  it("runs in the worktree before the first model call, and the agent starts from its result and is told", async () => {
    const issue = await h.api.createIssue({ title: "Use the helper setup made", labels: ["locus:queued"] });
    const before = h.fake.requests.length;
    h.fake.setScript([
      reply(call("run_shell", { command: "node -e 'console.log(require(\"made-by-setup\"))'" })),
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
      reply(call("finish", { summary: "Greeting now says Hi." })),
    ]);

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.outputs["status"]).toBe("succeeded");
    const first = JSON.stringify(h.fake.requests[before]);
    expect(first).toContain("Setup already run");
    expect(first).toContain("mkdir -p node_modules/made-by-setup");
    // The agent's first command found what setup installed.
    expect(JSON.stringify(h.fake.requests[before + 1])).toContain("ready");
    // What setup left is the agent's starting point, not part of the pull request.
    const files = await h.git(["ls-tree", "-r", "--name-only", `origin/locus/issue-${issue.number}`]);
    expect(files).not.toContain("node_modules");
  });

  it("fails the task with the command and the end of its output, before any model call", async () => {
    const issue = await h.api.createIssue({ title: "Setup breaks", labels: ["locus:queued"] });
    const before = h.fake.requests.length;

    const run = await h.run({
      mode: "issue",
      issue: String(issue.number),
      "config-path": ".github/locus-failing-setup.yml",
    });

    expect(run.outputs["status"]).toBe("failed");
    expect(h.fake.requests.length).toBe(before);
    expect((await h.api.getIssue(issue.number))?.labels).toContain("locus:failed");
    const said = (await h.api.listIssueComments(issue.number)).map((comment) => comment.body).join("\n");
    expect(said).toContain(
      "**Setup failed** before the agent started: `echo boom from setup; exit 3` exited with 3.",
    );
    expect(said).toContain("boom from setup");
    expect(said).not.toContain("never runs");
  });
});

describeWithSandbox("setup with a private registry", () => {
  it("installs through the proxy with the credential added there, the agent's test passes, and the credential is nowhere", async () => {
    // The reusable workflow's restored cache: setup's npm keeps its downloads there, the agent never sees it.
    const cache = join(h.dir, "runner-temp", "locus-setup-cache");
    const issue = await h.api.createIssue({ title: "Use the private package", labels: ["locus:queued"] });
    const before = h.fake.requests.length;
    const seenBefore = registry.seen.length;
    h.fake.setScript([
      reply(call("run_shell", { command: `node -e 'console.log(require("${PACKAGE}"))'; env` })),
      reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
      reply(call("finish", { summary: "Greeting now says Hi." })),
    ]);

    const run = await h.run(
      { mode: "issue", issue: String(issue.number), "config-path": ".github/locus-registry.yml" },
      { "INPUT_REGISTRY-CREDENTIALS": JSON.stringify({ NPM_TOKEN: SECRET }), "INPUT_SETUP-CACHE": cache },
    );

    expect(run.outputs["status"]).toBe("succeeded");
    expect(registry.seen.length).toBeGreaterThan(seenBefore);
    expect(registry.seen.slice(seenBefore).every((header) => header === `Bearer ${SECRET}`)).toBe(true);
    expect(JSON.stringify(h.fake.requests[before + 1])).toContain("from the private registry");
    expect(await readdir(join(cache, "npm"))).toContain("_cacache");
    expect(JSON.stringify(h.fake.requests[before + 1])).not.toContain("npm_config_cache");
    const pr = await h.api.findPullRequestByHead(`locus/issue-${issue.number}`, { state: "all" });
    const comments = JSON.stringify(await h.api.listIssueComments(issue.number));
    const log = run.stdout.replace(/^::add-mask::.*$/gm, "");
    for (const text of [log, run.stderr, run.summary, JSON.stringify(h.fake.requests), pr?.body, comments])
      expect(text).not.toContain(SECRET);
  });
});
