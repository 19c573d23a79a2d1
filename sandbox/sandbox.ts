/**
 * `npm run sandbox`: the demo's world, kept running for you to drive. The app
 * is installed on acme/strkit; you act as `alice` through the simulator's
 * REST API (curl lines are printed), the timeline shows what Locus does, and
 * Ctrl-C stops everything. SANDBOX_PORT fixes the simulator's port.
 */
import { createProgress } from "./terminal/progress.ts";
import { createTimeline, type Timeline } from "./terminal/timeline.ts";
import { DEMO_ISSUES } from "./replay/transcripts.ts";
import { HUMAN, startWorld, type WorldEvent } from "./world/start-world.ts";

const out = { write: (text: string) => process.stdout.write(text), isTTY: process.stdout.isTTY === true };
const color = out.isTTY && !process.env["NO_COLOR"];
const progress = createProgress(out);
const realModel = Boolean(process.env["ANTHROPIC_API_KEY"]);

const sink: { timeline?: Timeline; early: WorldEvent[] } = { early: [] };
progress.start("bundling the Action and starting GitHub, the app and the model");
const world = await startWorld({
  port: Number(process.env["SANDBOX_PORT"] ?? "0"),
  onEvent: (event) => (sink.timeline ? sink.timeline.handle(event) : sink.early.push(event)),
});
progress.stop();
world.sim.seed.installation(world.owner, { webhooks: true });
await world.settle();

const token = world.sim.as(HUMAN);
const api = `${world.sim.apiUrl}/repos/${world.owner}/${world.repo}`;
const curl = (method: string, path: string, body?: object) =>
  `curl -s -X ${method} ${api}${path} -H "Authorization: token $TOKEN"` +
  (body ? ` -d '${JSON.stringify(body)}'` : "");

console.log(
  `Locus sandbox: ${world.owner}/${world.repo} on a local GitHub at ${world.sim.url}, the app installed.`,
);
console.log(
  realModel
    ? "Model: the real Anthropic API (ANTHROPIC_API_KEY is set): any issue you file gets real work, at real cost."
    : "Model: the OFFLINE REPLAY MODEL. It only knows the demo's issues (e.g. the title " +
        `"${DEMO_ISSUES.capitalize.title}"); for others it changes nothing and the task fails. ` +
        "Set ANTHROPIC_API_KEY for real work.",
);
console.log(`
You are ${HUMAN} (write access). In another terminal:

  TOKEN=${token}
  # file an issue and queue it
  ${curl("POST", "/issues", { title: DEMO_ISSUES.capitalize.title, body: DEMO_ISSUES.capitalize.body, labels: ["locus:queued"] })}
  # or queue an existing issue, comment a command, look at the result
  ${curl("POST", "/issues/1/labels", { labels: ["locus:queued"] })}
  ${curl("POST", "/issues/1/comments", { body: "/locus status" })}
  ${curl("GET", "/pulls?state=all")} | grep -E '"(number|title|ref)"'
  # the repository itself
  git clone ${world.gitDir} strkit

Every /locus command works on comments (/locus run, /locus iterate <note> on a PR, /locus status, /locus help).
Ctrl-C stops the sandbox and removes its files.
`);

const timeline = createTimeline({ sim: world.sim, gitDir: world.gitDir, progress, color });
sink.timeline = timeline;
for (const event of sink.early) timeline.handle(event);

await new Promise<void>((resolve) => process.once("SIGINT", () => resolve()));
console.log("\nStopping: waiting for runs in flight, then removing the sandbox's files.");
await world.close();
