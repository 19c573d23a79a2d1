/**
 * Setup with a private registry, through the bundled Action: setup installs a package through the
 * egress proxy, which adds the registry's credential, the agent's test then loads it, and the
 * credential is nowhere Locus writes. It stays with the bundle because the credential comes in
 * through the Action's `registry-credentials` input and the cache through `setup-cache`, and what
 * it checks is the process's own stdout and stderr (masked by the runner's `::add-mask::`). Setup's
 * other runs (before the first model call, a failing command) are in process:
 * test/lib/setup/setup-before-agent.test.ts.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startPrivateRegistry, type PrivateRegistry } from "../../sandbox/world/private-registry.ts";
import { describeWithSandbox } from "../needs-bubblewrap.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";

const SECRET = "npm_setupRegistrySecret0123456789ab";
const PACKAGE = "@locus-test/private-dep";
let registry: PrivateRegistry;
let h: Harness;

beforeAll(async () => {
  registry = await startPrivateRegistry({
    authorization: `Bearer ${SECRET}`,
    packageName: PACKAGE,
    main: 'module.exports = "from the private registry";\n',
  });
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
    ".github/locus-registry.yml": registryConfig,
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await registry?.close();
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
