/**
 * `npm start`: the Locus app as a Node server, with Probot's conventions
 * (APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, HOST,
 * WEBHOOK_PATH, GHE_HOST, GHE_PROTOCOL, LOG_LEVEL), read from the environment
 * and from `.env` in the working directory (where Probot's setup flow writes
 * them; the environment wins). Without any app configuration it opens Probot's
 * setup flow; with an app but no webhook secret, or a weak one, it refuses to
 * start, since Probot would accept "development".
 * LOCUS_RECONCILE_MINUTES (default 10, 0 = off) sets how often the app
 * repairs work that a dropped delivery or a crashed run left behind; with it
 * on, the app also asks GitHub to redeliver lost webhooks once it listens and
 * on that timer. LOCUS_APP_URL (the app's public URL; LOCUS_OIDC_AUDIENCE
 * overrides the audience, LOCUS_OIDC_ISSUER the issuer for GitHub Enterprise
 * Server; by default the one GHE_HOST names) turns on the token exchange at
 * POST /locus/token.
 */
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pino } from "pino";
import { createProbot, run } from "probot";
import { createLocusServer, DEFAULT_WEBHOOK_PATH } from "./http-server.ts";
import { createLocusApp } from "./index.ts";
import { locusOctokit } from "./octokit.ts";
import { logPort } from "./probot-log.ts";
import { loadEnvFile } from "./env-file.ts";
import { createTokenExchangeRoute, tokenExchangeConfigFromEnv } from "./token-exchange.ts";
import { checkStartup, isConfigured } from "./startup-check.ts";

const env = process.env;
const envFile = join(process.cwd(), ".env");
const fromFile = loadEnvFile(envFile, env);
const problem = checkStartup(env);
if (problem) {
  console.error(
    fromFile.includes("WEBHOOK_SECRET") ? `${problem} (WEBHOOK_SECRET is read from ${envFile})` : problem,
  );
  process.exit(1);
}
const minutes = Number(env.LOCUS_RECONCILE_MINUTES ?? "10");
const reconcile =
  minutes > 0 ? { everyMs: minutes * 60_000, graceMinutes: Math.max(minutes, 10) } : undefined;
const locus = createLocusApp({ reconcile });

if (!isConfigured(env)) {
  // The app is registered with the URL its setup page was opened at: the server GitHub must reach.
  // Probot would otherwise register a smee.io channel, which this server does not read from.
  env.NO_SMEE_SETUP ??= "true";
  await run(locus.appFn);
} else {
  const log = pino({ level: env.LOG_LEVEL ?? "info" });
  const probot = createProbot({ overrides: { log, Octokit: locusOctokit(logPort(log)) } });
  const server = await createLocusServer({
    probot,
    appFn: locus.appFn,
    webhookPath: env.WEBHOOK_PATH ?? DEFAULT_WEBHOOK_PATH,
    tokenRoute: createTokenExchangeRoute(probot, tokenExchangeConfigFromEnv(env), logPort(log)),
  });
  const port = Number(env.PORT ?? "3000");
  server.listen(port, env.HOST ?? "0.0.0.0", () => {
    log.info(`Locus listening on port ${(server.address() as AddressInfo).port}`);
    // Deliveries that failed while the app was down, or that a crash ate after the 2xx, come back now.
    if (reconcile) void locus.sweepDeliveries();
  });
  const stop = () => {
    log.info("Stopping: finishing work in flight");
    server.close();
    void locus.work.drain().then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
