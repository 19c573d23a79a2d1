/**
 * The demo itself, loaded by sandbox/demo.ts: starts the sandbox world
 * (sandbox/world), plays the story of sandbox/scenario/demo-scenario.ts
 * through GitHub's API as a person, prints a live timeline, then the final
 * GitHub state and where to look. Exits 1 when any step did not happen.
 */
import { join } from "node:path";
import { probeBubblewrap } from "../lib/sandbox/probe.ts";
import { DEMO_SANDBOX_SWITCH, demoSandbox } from "./demo-sandbox.ts";
import { DEMO_STEPS, playScenario, scenarioState } from "./scenario/demo-scenario.ts";
import { createProgress } from "./terminal/progress.ts";
import { readFinalState, renderSummary, writeReport } from "./terminal/summary.ts";
import { createTimeline, type Timeline } from "./terminal/timeline.ts";
import { startWorld, type WorldEvent } from "./world/start-world.ts";

const started = Date.now();
const out = { write: (text: string) => process.stdout.write(text), isTTY: process.stdout.isTTY === true };
const color = out.isTTY && !process.env["NO_COLOR"];
const bold = (text: string) => (color ? `\x1b[1m${text}\x1b[0m` : text);
const progress = createProgress(out);
const realModel = Boolean(process.env["ANTHROPIC_API_KEY"]);

console.log(bold("Locus demo: the whole product on one machine"));
// The sandbox first: without bubblewrap, that is the first thing a newcomer needs to know.
const sandbox = demoSandbox({
  probe: probeBubblewrap(process.env["PATH"]),
  realModel,
  switchValue: process.env[DEMO_SANDBOX_SWITCH],
});
if (sandbox.kind === "stop") {
  console.log(sandbox.message);
  process.exit(1);
}
console.log(
  sandbox.kind === "off"
    ? `Sandbox: OFF. ${sandbox.message}`
    : "Sandbox: bubblewrap (every command the agent runs is confined to its worktree, its network to the allowlist).",
);
console.log(
  realModel
    ? "Model: the real Anthropic API (ANTHROPIC_API_KEY is set); runs cost real tokens and their results vary."
    : "Model: the OFFLINE REPLAY MODEL — recorded transcripts for the demo's issues, served by a local stand-in for\n" +
        "the Anthropic API. The tool calls really run (files change, tests run), but no AI is thinking. Every PR says so.\n" +
        "Set ANTHROPIC_API_KEY to use the real API.",
);
console.log(
  "GitHub: a local simulator (REST, GraphQL, signed webhooks, real git). App: the real Locus Probot app.\n" +
    "Runner: each workflow run executes the bundled Action in a fresh clone.",
);

// Events arrive while the world starts, before the timeline (which needs the world) exists.
const sink: { timeline?: Timeline; early: WorldEvent[] } = { early: [] };
progress.start("bundling the Action and starting GitHub, the app and the model");
// Readable names, but an app slug that is not `locus`: like every operator's, the demo's app has its own name.
const world = await startWorld({
  names: { owner: "acme", repo: "strkit", appSlug: "acme-locus" },
  sandbox: sandbox.kind === "off" ? "off" : "required",
  onEvent: (event) => (sink.timeline ? sink.timeline.handle(event) : sink.early.push(event)),
});
progress.stop();
const timeline = createTimeline({ sim: world.sim, gitDir: world.gitDir, progress, color });
sink.timeline = timeline;
for (const event of sink.early) timeline.handle(event);
timeline.note(
  `simulator ${world.sim.url} · app webhooks ${world.webhookUrl} · ready in ${((Date.now() - started) / 1000).toFixed(1)}s`,
);

const state = scenarioState(world);
const outcomes = await playScenario(state, DEMO_STEPS, {
  beforeStep: (step) => {
    timeline.step(step.title);
    progress.start(step.waiting);
  },
  afterStep: (outcome) => {
    progress.stop();
    const mark = outcome.problems.length === 0 ? "✔" : "✘";
    timeline.note(
      `${mark} ${outcome.problems.length === 0 ? "as expected" : outcome.problems.join("; ")} (${(outcome.ms / 1000).toFixed(1)}s)`,
    );
  },
});

const final = await readFinalState(state.read);
const bot = world.sim.app.botLogin;
const reportPath = join(world.workDir, "report.md");
const header = realModel
  ? "Written with the real Anthropic API."
  : "Written with the sandbox's offline replay model (recorded transcripts, no live model).";
await writeReport(reportPath, final, bot, header);
const failed = outcomes.filter((outcome) => outcome.problems.length > 0);
const missing = DEMO_STEPS.length - outcomes.length;
const counts = timeline.counts;

console.log(`\n${bold(`Final state of ${world.owner}/${world.repo} on the simulated GitHub`)}`);
for (const row of renderSummary(final, bot)) console.log(`  ${row}`);
console.log(
  `  Activity: ${counts.webhooks} webhooks (${counts.ownWebhooks} caused by Locus itself, which it ignores), ` +
    `${counts.dispatches} dispatches, ${counts.runs} workflow runs, ${counts.pushes} pushes`,
);
console.log(`\n${bold("Where to look")}`);
console.log(`  git remote:  ${world.gitDir}`);
console.log(
  `               git clone ${world.gitDir} ${world.repo} && git -C ${world.repo} log --graph --oneline --all`,
);
console.log(`  report:      ${reportPath} (every PR body and comment Locus wrote)`);
console.log(`  runs:        ${join(world.workDir, "runs")} (each run's fresh checkout and job summary)`);
console.log(
  `  sessions:    ${join(world.workDir, "runs", "run-<id>", "temp", "locus-session-record")} (each run's session record)`,
);

await world.close({ keepFiles: true });
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (failed.length === 0 && missing === 0) {
  console.log(`\n${bold(`✔ All ${outcomes.length} steps happened as expected in ${seconds}s.`)}`);
} else {
  console.log(
    `\n${bold(`✘ ${failed.length + missing} of ${DEMO_STEPS.length} steps did not happen as expected (${seconds}s):`)}`,
  );
  for (const outcome of failed) console.log(`  - ${outcome.title}: ${outcome.problems.join("; ")}`);
  if (missing > 0) console.log(`  - ${missing} later steps were not played`);
  process.exitCode = 1;
}
