/**
 * Private registries through the bundled Action: the workflow passes the secret in
 * `registry-credentials`, the agent's command in the sandbox reads a package's metadata from a
 * registry that refuses requests without the token (the egress proxy adds it), and the token
 * appears nowhere Locus writes: the step's log, the job summary, what the model was sent, the
 * issue's comments, the PR. A config that names a secret the workflow did not pass stops the run
 * with one line, before any model call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startPrivateRegistry, type PrivateRegistry } from "../../sandbox/world/private-registry.ts";
import { describeWithSandbox } from "../needs-bubblewrap.ts";
import { PROJECT_FILES, startHarness, type Harness } from "./harness.ts";

const SECRET = "npm_actionRegistrySecret0123456789";
const PACKAGE = "@locus-test/private-dep";
let registry: PrivateRegistry;
let h: Harness;

beforeAll(async () => {
  registry = await startPrivateRegistry({
    authorization: `Bearer ${SECRET}`,
    packageName: PACKAGE,
    main: "module.exports = 1;\n",
  });
  h = await startHarness({
    ...PROJECT_FILES,
    ".github/locus.yml": `version: 3\nsandbox:\n  network:\n    credentials:\n      "127.0.0.1:${registry.port}": NPM_TOKEN\n`,
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await registry?.close();
});

describe("a credential secret the workflow did not pass", () => {
  it("stops the run with one line naming it, before any model call, and changes nothing", async () => {
    const issue = await h.api.createIssue({ title: "Use the private package", labels: ["locus:queued"] });
    const before = h.fake.requests.length;
    const run = await h.run({ mode: "issue", issue: String(issue.number) });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain(
      "::error::sandbox.network.credentials names `NPM_TOKEN`, which the workflow did not pass",
    );
    expect(h.fake.requests.length).toBe(before);
    expect((await h.api.getIssue(issue.number))?.labels).toEqual(["locus:queued"]);
    expect(await h.api.listIssueComments(issue.number)).toEqual([]);
  });
});

describeWithSandbox("a private registry through the bundled Action", () => {
  it("reaches the registry with the token the proxy adds, and the token is nowhere Locus writes", async () => {
    const issue = await h.api.createIssue({ title: "Note the private package", labels: ["locus:queued"] });
    h.fake.setScript([
      reply(
        call("run_shell", {
          command: `NO_PROXY= no_proxy= npm view --registry ${registry.url}/ ${PACKAGE} version > version.txt; cat version.txt; env`,
        }),
      ),
      reply(call("write_file", { path: "src/private.js", content: "export const uses = 'private-dep';\n" })),
      reply(call("finish", { summary: "Noted the private package." })),
    ]);
    const seenBefore = registry.seen.length;
    const run = await h.run(
      { mode: "issue", issue: String(issue.number) },
      { "INPUT_REGISTRY-CREDENTIALS": JSON.stringify({ NPM_TOKEN: SECRET, UNUSED: "unused-secret-value" }) },
    );
    expect(run.code).toBe(0);
    expect(registry.seen.length).toBeGreaterThan(seenBefore);
    expect(registry.seen.slice(seenBefore).every((header) => header === `Bearer ${SECRET}`)).toBe(true);
    const sent = JSON.stringify(h.fake.requests.at(-2));
    expect(sent).toContain("1.0.0");
    const pr = await h.api.findPullRequestByHead(`locus/issue-${issue.number}`, { state: "all" });
    const comments = JSON.stringify(await h.api.listIssueComments(issue.number));
    // The runner masks what `::add-mask::` names: the one place the log may carry it, to register it.
    expect(run.stdout).toContain(`::add-mask::${SECRET}\n`);
    const log = run.stdout.replace(/^::add-mask::.*$/gm, "");
    for (const text of [log, run.stderr, run.summary, JSON.stringify(h.fake.requests), pr?.body, comments])
      expect(text).not.toContain(SECRET);
  });
});
