/**
 * A credential-holding program never starts in a home the agent's shell wrote, through the bundled
 * Action, wherever the attack moves (attack-variants.ts: a retry, an iterate round, a rebase's
 * second conflict, a sprint's second task; and a sprint with `sandbox.mode: off`). The earlier
 * session's shell plants what a test could plant in its home for the next
 * `npx`-launched program: `~/.npmrc` with `node-options=--require=<payload>` and
 * `script-shell=<payload>`, and a `~/.gitconfig` and `~/.config/git/config` whose fsmonitor is the
 * payload. The later session starts an MCP server through `npx` holding a credential (PROBE_TOKEN), calls it,
 * and, as the control, runs `npx` from its own shell. Every payload appends a line to a file in
 * the worktree saying whose credential it saw. Only the control's two lines may be there: the
 * server's home is fresh (nothing planted in it, npm reads no user config), Locus's own git reads
 * no global config, and the credential reaches nothing Locus publishes.
 *
 * The same runs carry host-boundary.test.ts's attack as it moves (nested-repository-attack.ts: a
 * nested repository whose filter would run on the host, and a CONNECT to a port out of range), so
 * each variant runs the bundled Action once for both attacks; each attack has its own tests and
 * its own evidence (the payload file, the filter's marker and environment dump). The unsandboxed
 * sprint carries the nested repository too, for Locus's git on the host.
 */
import { existsSync } from "node:fs";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import type { FakeTurn, RecordedRequest } from "../../sandbox/anthropic-fake/types.ts";
import { installFixture } from "../lib/sandbox/fixtures/install-fixture.ts";
import { configForThisMachine, describeWithSandbox } from "../needs-bubblewrap.ts";
import { startHarness, type ActionRun, type Harness } from "./harness.ts";
import {
  ATTACK_VARIANTS,
  expectHostUntouched,
  type AttackTurns,
  type AttackVariant,
  type VariantOutcome,
} from "./attack-variants.ts";
import {
  BAD_PORT,
  filterTraces,
  gitSessionStarted,
  plantNestedRepository,
  shell,
} from "./nested-repository-attack.ts";
import { agentSaw } from "./recorded-run.ts";
import { CONTROL, plant, serverSaw } from "./home-plant.ts";

const SERVER = join(import.meta.dirname, "..", "lib", "sandbox", "fixtures", "home-probe-mcp-server.ts");
const exec = promisify(execFile);
const TOKEN = "probe-token-canary-3e8d41c7a9";

let h: Harness;
let base: string;
let packages: string;
let tarball: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-shared-home-"));
  const bin = await installFixture(join(base, "tools"), "home-probe-mcp-server", SERVER);
  const dir = join(dirname(bin), "home-probe-mcp-server");
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({
      name: "home-probe-mcp-server",
      version: "1.0.0",
      bin: { "home-probe-mcp-server": "index.mjs" },
    }),
  );
  // Packed, so that `npx --package=<tarball>` runs it offline; the tarball's directory is on the
  // runner's PATH, so the sandbox shows it as it shows a setup action's toolchain.
  packages = join(base, "packages");
  await mkdir(packages);
  await exec("npm", ["pack", "--silent", "--pack-destination", packages, dir], { cwd: base });
  tarball = join(packages, "home-probe-mcp-server-1.0.0.tgz");
  h = await startHarness();
  const command = JSON.stringify([
    "npx",
    "--yes",
    "--offline",
    `--package=${tarball}`,
    "home-probe-mcp-server",
  ]);
  const config = (mode: string) =>
    `version: 3\nagent:\n  mcpServers:\n    home:\n      command: ${command}\n      env: [PROBE_TOKEN]\n      required: true\nsandbox:\n  mode: ${mode}\n`;
  await h.git(["checkout", "--quiet", "-B", "configs", "origin/main"]);
  await writeFile(join(h.scratch, "home.yml"), configForThisMachine(config("required")));
  await writeFile(join(h.scratch, "home-off.yml"), config("off"));
  await h.git(["add", "home.yml", "home-off.yml"]);
  await h.git(["commit", "--quiet", "-m", "config: an MCP server started through npx"]);
  await h.git(["push", "--quiet", "origin", "configs:main"]);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await rm(base, { recursive: true, force: true });
});

/**
 * Task 1 leaves the nested repository (host-boundary.test.ts's attack, with Locus's git on the
 * host here) and then plants; task 2 calls the server and runs the control; each then finishes.
 */
function script(): FakeTurn[] {
  const turn = (request: RecordedRequest) => {
    const text = JSON.stringify(request.body);
    if (text.includes("tool_result")) return reply(call("finish", { summary: "Done." }));
    if (/## Task: #\d+ Plant/.test(text))
      return reply(
        call("write_file", { path: "one.txt", content: "1\n" }),
        shell(plantNestedRepository(h.dir)),
        call("run_shell", { command: plant() }),
      );
    return reply(call("mcp__home__home", {}), call("run_shell", { command: CONTROL }));
  };
  return [turn, turn, turn, turn];
}

interface Sprint {
  readonly run: ActionRun;
  readonly requests: readonly RecordedRequest[];
  readonly first: number;
  readonly second: number;
}

/**
 * A sprint of two tasks, Plant then Use, with `sandbox.mode: off` (the sandboxed variants are
 * attack-variants.ts's). Not recorded: unsandboxed, the recorder's NODE_OPTIONS would reach the server.
 */
async function sprint(title: string): Promise<Sprint> {
  const milestone = await h.api.createMilestone({ title });
  for (const [order, name] of ["Plant", "Use"].entries()) {
    await h.api.createIssue({
      title: `${name} ${title}`,
      labels: ["locus:queued", `order:${order + 1}`],
      milestone: milestone.number,
    });
  }
  const issues = await h.api.listIssues({ state: "open" });
  const numbered = (name: string) => issues.find((issue) => issue.title === `${name} ${title}`)?.number ?? 0;
  h.fake.setScript(script());
  const from = h.fake.requests.length;
  // A runner's layout: its work directory (hidden with the temp in it) beside the tools.
  const runnerTemp = join(base, `work-${milestone.number}`, "_temp");
  await mkdir(runnerTemp, { recursive: true });
  const run = await h.run(
    { mode: "sprint", milestone: String(milestone.number), "config-path": "home-off.yml" },
    {
      PROBE_TOKEN: TOKEN,
      PATH: `${packages}:${process.env["PATH"] ?? ""}`,
      RUNNER_TEMP: runnerTemp,
    },
  );
  return { run, requests: h.fake.requests.slice(from), first: numbered("Plant"), second: numbered("Use") };
}

/** Everything the run published or sent: remote commits, comments, PR and issue bodies, summary, outputs, logs, model requests. */
async function published(run: ActionRun, requests: readonly RecordedRequest[]): Promise<string> {
  const texts = [
    await h.git(["log", "-p", "--all", "--format=%H %s%n%b"]),
    run.summary,
    run.stdout,
    run.stderr,
    JSON.stringify(run.outputs),
    ...requests.map((request) => JSON.stringify(request.body)),
  ];
  for (const repo of h.sim.store.repos.values()) {
    texts.push(...repo.comments.map((c) => c.body), ...[...repo.issues.values()].map((i) => i.body ?? ""));
  }
  return texts.join("\n");
}

/**
 * The server ran no payload and saw a fresh home; the payload-ran file on `branch` holds the
 * control's lines only. `requests` are every model request of the runs in question.
 */
async function expectNoPayloadButTheControl(
  requests: readonly RecordedRequest[],
  branch: string,
): Promise<void> {
  const seen = serverSaw(requests);
  expect(seen["hasToken"]).toBe(true);
  expect(seen["npmrc"]).toBe(false);
  expect(seen["nodeOptions"]).toBeNull();
  expect(seen["npmUserconfig"]).toBe("/dev/null");
  const entries = (seen["entries"] as string[] | undefined) ?? ["missing"];
  expect(entries.filter((entry) => /locus-payload|npmrc|gitconfig|config\/git/.test(entry))).toEqual([]);
  // The plant was live: the earlier session's npm read it, and the control's npx ran both payloads.
  expect(JSON.stringify(requests.map((request) => request.body))).toMatch(
    /--require=\S*\/\.locus-payload\/payload\.cjs/,
  );
  const lines = await h.show(branch, "payload-ran.txt");
  expect(lines.split("\n").filter(Boolean).sort()).toEqual([
    "node payload: no token",
    "sh payload: no token",
  ]);
}

/**
 * Both host-side attacks in every agent session, played once per variant for both describes
 * below (each variant has its own issue, branches and runs): the nested repository and the bad
 * port first, so that the attacker's own git runs before any home plant; then the plant. The later
 * session calls the server (started after that plant where both sessions are in one run: a
 * rebase's second conflict, a sprint's second task), plants again so that the control shows the
 * plant live in a run of its own, and runs the control.
 */
const attack = (): AttackTurns => {
  const hostSide = [shell(plantNestedRepository(h.dir)), shell(BAD_PORT)];
  return {
    first: [...hostSide, shell(plant())],
    later: [...hostSide, shell(plant({ shown: false })), call("mcp__home__home", {}), shell(CONTROL)],
  };
};

const outcomes = new Map<AttackVariant, Promise<VariantOutcome>>();

/** The variant's one play, started by whichever of its tests runs first. */
function played(variant: AttackVariant): Promise<VariantOutcome> {
  const known = outcomes.get(variant);
  if (known) return known;
  const world = {
    h,
    dir: base,
    configPath: "home.yml",
    env: { PROBE_TOKEN: TOKEN, PATH: `${packages}:${process.env["PATH"] ?? ""}` },
  };
  const outcome = variant.play(world, attack());
  outcomes.set(variant, outcome);
  return outcome;
}

describeWithSandbox("a home the agent's shell wrote, as the attack moves", () => {
  for (const variant of ATTACK_VARIANTS)
    it(`is never a credential holder's in ${variant.name}: the npx-launched MCP server runs no payload and sees a fresh home`, async () => {
      const outcome = await played(variant);
      const requests = outcome.runs.flatMap((run) => run.requests);

      await expectNoPayloadButTheControl(requests, outcome.last);
      expect(serverSaw(requests)["home"]).toBe("/home/locus");
      // npx and the server were started in the sandbox, like everything else after the agent began.
      expectHostUntouched(outcome);
      // The shell's home was the sandbox's, never the runner's.
      expect(existsSync(join(h.dir, "home", ".npmrc"))).toBe(false);
      for (const run of outcome.runs) expect(await published(run.run, run.requests)).not.toContain(TOKEN);
    }, 240_000);
});

describeWithSandbox("the nested-repository filter and a bad CONNECT port, as the attack moves", () => {
  for (const variant of ATTACK_VARIANTS)
    it(`get nothing in ${variant.name}`, async () => {
      const outcome = await played(variant);

      expectHostUntouched(outcome);
      for (const run of outcome.runs) {
        // Both attacks were in place, the proxy answered the bad port, and Locus's git ran sandboxed.
        expect(agentSaw(run, "planted")).toBe(true);
        expect(agentSaw(run, "HTTP/1.1 400")).toBe(true);
        expect(gitSessionStarted(run.started)).toBe(true);
      }
      expect(outcome.pushed.filter((path) => path.startsWith("vendor/lib"))).toEqual([]);
      expect(existsSync(filterTraces(h.dir).marker)).toBe(false);
      expect(existsSync(filterTraces(h.dir).envDump)).toBe(false);
    }, 240_000);
});

/** The unsandboxed sprint, played once for both tests below. */
let unsandboxed: Promise<Sprint> | undefined;
const sprintedUnsandboxed = () => (unsandboxed ??= sprint("Unsandboxed"));

describe("a home the agent's shell wrote, with sandbox.mode off", () => {
  it("is the runner's own here, and still never the credential holder's", async () => {
    const sprinted = await sprintedUnsandboxed();

    expect(sprinted.run.outputs["status"]).toBe("succeeded");
    await expectNoPayloadButTheControl(sprinted.requests, `locus/issue-${sprinted.second}`);
    // Unconfined, the shell wrote the runner's real ~/.npmrc: the server's home is another one.
    expect(existsSync(join(h.dir, "home", ".npmrc"))).toBe(true);
    expect(serverSaw(sprinted.requests)["home"]).not.toBe(join(h.dir, "home"));
    expect(await published(sprinted.run, sprinted.requests)).not.toContain(TOKEN);
  }, 120_000);
});

describe("the nested-repository filter with sandbox.mode off", () => {
  it("never runs: Locus's git, on the host here, does not look inside nested repositories", async () => {
    const sprinted = await sprintedUnsandboxed();

    expect(JSON.stringify(sprinted.requests.map((request) => request.body))).toContain("planted");
    expect(sprinted.run.outputs["status"]).toBe("succeeded");
    expect(await h.show(`locus/issue-${sprinted.first}`, "one.txt")).toBe("1\n");
    expect(existsSync(filterTraces(h.dir).marker)).toBe(false);
    expect(existsSync(filterTraces(h.dir).envDump)).toBe(false);
  }, 120_000);
});
