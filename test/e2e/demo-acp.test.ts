/**
 * The demo's standalone task with provider `acp`: the sample project's config names the scripted
 * ACP agent, installed on the runner's PATH the way a user installs an npm package, and the real
 * app, the simulator and the bundled Action deliver its pull request the way they deliver the
 * built-in agent's, with the agent running inside the sandbox.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_STEPS, scenarioState, type ScenarioState } from "../../sandbox/scenario/demo-scenario.ts";
import { startWorld, type World } from "../../sandbox/world/start-world.ts";
import { UNSANDBOXED_NOTE } from "../../lib/status/status-comment.ts";
import { installFixture } from "../lib/sandbox/fixtures/install-fixture.ts";
import { sharedActionBundle } from "../action-bundle.ts";
import { worldSandboxMode } from "../needs-bubblewrap.ts";

const AGENT = join(import.meta.dirname, "..", "lib", "agent", "runners", "fixtures", "scripted-acp-agent.ts");

let world: World;
let state: ScenarioState;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "locus-demo-acp-"));
  // The agent is installed on the runner's PATH, and the sandbox mounts what is on it.
  const installed = await installFixture(scratch, "scripted-acp-agent", AGENT);
  world = await startWorld({
    anthropicApiKey: "",
    sandbox: worldSandboxMode,
    // The bundle the global setup built for this run: a world's own would be a second esbuild pass.
    bundle: sharedActionBundle(),
    acpAgent: ["scripted-acp-agent", "capitalize"],
    runnerPath: `${installed}:${process.env["PATH"] ?? ""}`,
  });
  state = scenarioState(world);
}, 60_000);

afterAll(async () => {
  await world.close();
  await rm(scratch, { recursive: true, force: true });
});

describe("the demo's standalone task with provider acp", () => {
  for (const step of DEMO_STEPS.slice(0, 2)) {
    it(
      step.title,
      async () => {
        await step.act(state);
        expect(await step.check(state)).toEqual([]);
      },
      60_000,
    );
  }

  it("was the ACP agent's work, run in the sandbox where the machine has one, its tests run through Locus's terminal", async () => {
    const issue = state.issues.capitalize ?? 0;
    const pull = await state.read.pullForBranch(`locus/issue-${issue}`);
    const { data } = await state.human.rest.pulls.get({ ...state.repo, pull_number: pull?.number ?? 0 });
    expect(data.body).toContain(
      "Added `capitalize(text)` over ACP, exported it and tested it (node --test exited 0).",
    );
    // The "without a sandbox" note on the issue exactly when the machine has no bubblewrap.
    const comments = await state.human.rest.issues.listComments({ ...state.repo, issue_number: issue });
    expect(comments.data.length).toBeGreaterThan(0);
    const said = comments.data.map((comment) => comment.body ?? "").join("\n");
    expect(said.includes(UNSANDBOXED_NOTE)).toBe(worldSandboxMode === "off");
    expect(world.runner.finished.map((run) => run.conclusion)).toEqual(["success"]);
  });
});
