/**
 * `npm start`: the Locus app as a Node server, with Probot's conventions
 * (APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, HOST,
 * WEBHOOK_PATH, GHE_HOST, GHE_PROTOCOL, LOG_LEVEL). Without any app
 * configuration it opens Probot's setup flow; with an app but no webhook
 * secret it refuses to start, since Probot would accept "development".
 */
import { run } from "probot";
import { createLocusApp } from "./index.ts";
import { checkStartup } from "./startup-check.ts";

const problem = checkStartup(process.env);
if (problem) {
  console.error(problem);
  process.exit(1);
}
await run(createLocusApp().appFn);
