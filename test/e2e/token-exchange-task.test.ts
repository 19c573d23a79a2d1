/**
 * A whole task on the sandbox world where no repository holds an app key and
 * the runs' `github-token` is worthless: the bundled Action gets every token
 * it uses from the app's token exchange (its OIDC token from the simulator's
 * issuer, through the runner's ACTIONS_ID_TOKEN_REQUEST_* variables), and the
 * pull request comes back opened by Locus's own identity, with no call GitHub
 * would refuse for its permissions (the simulator records those).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExchangeEvent } from "../../app/token-route.ts";
import { DEMO_STEPS, scenarioState, type ScenarioState } from "../../sandbox/scenario/demo-scenario.ts";
import { startWorld, type World } from "../../sandbox/world/start-world.ts";
import { sharedActionBundle } from "../action-bundle.ts";
import { worldSandboxMode } from "../needs-bubblewrap.ts";

const exec = promisify(execFile);
const UNUSABLE = "ghs_the-exchange-replaces-this-token-000000";

let world: World;
let state: ScenarioState;
const exchanges: ExchangeEvent[] = [];
const authorizations = new Set<string>();
const lines: string[] = [];

beforeAll(async () => {
  world = await startWorld({
    anthropicApiKey: "",
    sandbox: worldSandboxMode,
    // The bundle the global setup built for this run: a world's own would be a second esbuild pass.
    bundle: sharedActionBundle(),
    githubToken: () => UNUSABLE,
    onEvent: (event) => {
      if (event.type === "token-exchange") exchanges.push(event.event);
      if (event.type === "run-line") lines.push(event.line);
      if (event.type === "exchange") {
        const header = event.exchange.requestHeaders.authorization;
        if (typeof header === "string") authorizations.add(header.replace(/^(token|bearer)\s+/i, ""));
      }
    },
  });
  state = scenarioState(world);
}, 60_000);

afterAll(async () => {
  await world.close();
});

describe("a task whose tokens all come from the exchange", () => {
  it("installs, queues an issue and gets a pull request opened by Locus", async () => {
    const [install, standalone] = DEMO_STEPS;
    if (!install || !standalone) throw new Error("the demo lost its first steps");
    await install.act(state);
    await standalone.act(state);
    expect(await standalone.check(state)).toEqual([]);

    const run = world.runner.finished[0];
    expect(run?.conclusion).toBe("success");
    const pulls = await world.as("alice").rest.pulls.list({ owner: world.owner, repo: world.repo });
    expect(pulls.data.map((pull) => pull.user?.login)).toEqual([world.sim.app.botLogin]);
    // The exchange told the run who it is: its commit names the app's bot with its noreply address.
    const head = pulls.data[0]?.head.sha ?? "";
    const { stdout } = await exec("git", [
      "--git-dir",
      world.gitDir,
      "log",
      "-1",
      "--format=%an <%ae>|%cn <%ce>",
      head,
    ]);
    const { login, id } = world.sim.bot;
    const bot = `${login} <${id}+${login}@users.noreply.github.com>`;
    expect(stdout.trim()).toBe(`${bot}|${bot}`);
  }, 120_000);

  it("traded the run's OIDC token for an agent token first and a publish token only to deliver", () => {
    expect(exchanges.map((event) => [event.outcome, event.phase])).toEqual([
      ["granted", "agent"],
      ["granted", "publish"],
    ]);
    const agentDone = lines.findIndex((line) => line.startsWith("done: "));
    const publish = lines.findIndex((line) => line.startsWith("Locus: publish token received"));
    expect(agentDone).toBeGreaterThan(-1);
    expect(publish).toBeGreaterThan(agentDone);
    expect(world.sim.oidc.issued.size).toBe(1);
    // GitHub saw requests, and none of them carried the workflow's own (unusable) token.
    expect(authorizations.size).toBeGreaterThan(0);
    expect(authorizations.has(UNUSABLE)).toBe(false);
  });

  it("called no route GitHub's permission data leaves out, and none its phase token may not", () => {
    expect(world.sim.store.permissionViolations).toEqual([]);
  });
});
