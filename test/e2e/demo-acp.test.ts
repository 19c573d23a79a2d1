/**
 * The demo's standalone task with provider `acp`: the sample project's config names the scripted
 * ACP agent, and the real app, the simulator and the bundled Action deliver its pull request the
 * way they deliver the built-in agent's.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_STEPS, scenarioState, type ScenarioState } from "../../sandbox/scenario/demo-scenario.ts";
import { startWorld, type World } from "../../sandbox/world/start-world.ts";

const AGENT = join(import.meta.dirname, "..", "lib", "agent", "runners", "fixtures", "scripted-acp-agent.ts");

let world: World;
let state: ScenarioState;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "locus-demo-acp-"));
  world = await startWorld({
    anthropicApiKey: "",
    acpAgent: [process.execPath, AGENT, "capitalize", join(scratch, "agent-log.json")],
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

  it("was the ACP agent's work, its tests run through Locus's terminal", async () => {
    const log = JSON.parse(await readFile(join(scratch, "agent-log.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(log["tests"]).toEqual({ exitCode: 0, signal: null });
    expect(String(log["prompt"])).toContain("Add a capitalize helper");
    expect(world.runner.finished.map((run) => run.conclusion)).toEqual(["success"]);
  });
});
