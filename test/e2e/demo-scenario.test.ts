/**
 * The demo's story end to end, on one sandbox world: the real app behind
 * Probot's server, signed webhooks, the bundled Action run per dispatch in a
 * fresh clone, the replay model. Each step is checked against GitHub's state.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPLAY_NOTICE } from "../../sandbox/replay/transcripts.ts";
import { DEMO_STEPS, scenarioState, type ScenarioState } from "../../sandbox/scenario/demo-scenario.ts";
import { readFinalState, renderReport } from "../../sandbox/terminal/summary.ts";
import { startWorld, type World } from "../../sandbox/world/start-world.ts";
import { sharedActionBundle } from "../action-bundle.ts";
import { worldSandboxMode } from "../needs-bubblewrap.ts";

let world: World;
let state: ScenarioState;

beforeAll(async () => {
  world = await startWorld({
    anthropicApiKey: "",
    bundle: sharedActionBundle(),
    sandbox: worldSandboxMode,
  });
  state = scenarioState(world);
}, 60_000);

afterAll(async () => {
  await world.close();
});

describe("npm run demo's story", () => {
  for (const step of DEMO_STEPS) {
    it(
      step.title,
      async () => {
        await step.act(state);
        expect(await step.check(state)).toEqual([]);
      },
      60_000,
    );
  }

  it("ran every dispatch as a fresh checkout without credentials on disk, and the report holds what Locus wrote", async () => {
    const finished = world.runner.finished;
    expect(finished.map((run) => run.conclusion)).toEqual(Array(9).fill("success"));
    for (const run of finished) {
      const config = await readFile(join(run.workspace, ".git", "config"), "utf8");
      expect(config).not.toMatch(/ghs_|extraheader|token/i);
    }
    const final = await readFinalState(state.read);
    expect(final.pulls.map((pull) => pull.base)).toEqual([
      "main",
      "main",
      "main",
      "main",
      `locus/issue-${state.issues.slugEdges}`,
      "main",
    ]);
    const report = renderReport(final, world.sim.app.botLogin, "header");
    expect(report.split(REPLAY_NOTICE).length - 1).toBeGreaterThanOrEqual(4);
    expect(report).toContain("could not finish");
    expect(report).toContain(`## Locus status: ${world.owner}/${world.repo}`);
  });
});
