/**
 * `npm start`: the Locus app as a Node server, with Probot's conventions
 * (APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, HOST,
 * WEBHOOK_PATH, GHE_HOST, GHE_PROTOCOL, LOG_LEVEL). Without any app
 * configuration it opens Probot's setup flow; with an app but no webhook
 * secret it refuses to start, since Probot would accept "development".
 * LOCUS_RECONCILE_MINUTES (default 10, 0 = off) sets how often the app
 * repairs work that a dropped delivery or a crashed run left behind.
 */
import { run } from "probot";
import { createLocusApp } from "./index.ts";
import { checkStartup } from "./startup-check.ts";

const problem = checkStartup(process.env);
if (problem) {
  console.error(problem);
  process.exit(1);
}
const minutes = Number(process.env.LOCUS_RECONCILE_MINUTES ?? "10");
const reconcile =
  minutes > 0 ? { everyMs: minutes * 60_000, graceMinutes: Math.max(minutes, 10) } : undefined;
await run(createLocusApp({ reconcile }).appFn);
