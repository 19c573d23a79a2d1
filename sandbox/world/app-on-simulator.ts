/**
 * The Locus app served by the same HTTP front as `npm start`, talking to the
 * GitHub simulator, which sends it signed webhooks over loopback. Shared by
 * the sandbox, the app's tests and the benchmarks.
 */
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { Probot } from "probot";
import { createLocusServer, type LocusServerOptions } from "../../app/http-server.ts";
import { createLocusApp, type LocusApp, type LocusAppOptions } from "../../app/index.ts";
import { locusOctokit } from "../../app/octokit.ts";
import { logPort } from "../../app/probot-log.ts";
import { createTokenExchangeRoute, type TokenExchangeConfig } from "../../app/token-exchange.ts";
import type { TokenRoute } from "../../app/token-route.ts";
import { runName, type Mode } from "../../lib/dispatch/dispatch-inputs.ts";
import type { Log } from "../../lib/github/index.ts";
import type { GitHubSimulator } from "../github-sim/index.ts";

const quiet: Log = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** The reusable workflow's `run-name`, `Locus <mode> #<target> (<delivery>)`, as GitHub evaluates it at dispatch. */
export function simulatedRunName({ inputs }: { inputs: Record<string, string> }): string {
  const target = Number(inputs.milestone || inputs.pr || (inputs.issue ?? "").split(" ")[0]) || undefined;
  return runName(inputs.mode as Mode, target, inputs.delivery ?? "");
}

export interface AppOnSimulator {
  readonly locus: LocusApp;
  readonly webhookUrl: string;
  /** The app's base URL: the token exchange's audience and the Action's `app-url`. */
  readonly appUrl: string;
  /** Waits until webhooks, workflow runs (unless `runs: false`) and the app's work have all finished. */
  settle(options?: { runs?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export async function startAppOnSimulator(
  sim: GitHubSimulator,
  options: {
    secret: string;
    log: Logger;
    app?: LocusAppOptions;
    server?: Partial<Omit<LocusServerOptions, "probot" | "appFn">>;
    /** False for a second replica: the simulator keeps sending its webhooks where it did. */
    receiveWebhooks?: boolean;
    /** The token exchange, trusting the simulator's OIDC issuer and the app's own URL as audience. */
    tokenExchange?: Partial<TokenExchangeConfig>;
  },
): Promise<AppOnSimulator> {
  const locus = createLocusApp(options.app);
  const probot = new Probot({
    appId: sim.app.id,
    privateKey: sim.appPrivateKey ?? "",
    secret: options.secret,
    baseUrl: sim.apiUrl,
    log: options.log,
    Octokit: locusOctokit(quiet, { retryUnitMs: 0, minWriteIntervalMs: 0 }),
  });
  // The exchange's audience is the app's URL, known once the server listens.
  const late: { route?: TokenRoute } = {};
  const server = await createLocusServer({
    probot,
    appFn: locus.appFn,
    tokenRoute: (request, response) => late.route?.(request, response),
    ...options.server,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const webhookUrl = `${appUrl}/api/github/webhooks`;
  late.route = createTokenExchangeRoute(
    probot,
    { issuer: sim.oidc.issuer, audience: appUrl, ...options.tokenExchange },
    logPort(options.log),
  );
  if (options.receiveWebhooks !== false) sim.webhooks.url = webhookUrl;

  async function settle({ runs = true }: { runs?: boolean } = {}): Promise<void> {
    for (let round = 0; round < 100; round++) {
      await (runs ? sim.settle() : sim.webhooks.drain());
      await locus.work.drain();
      if (runs) await sim.settle();
      const delivered = sim.webhooks.deliveries.every((d) => d.status !== null || d.error !== null);
      if (locus.work.size === 0 && delivered) return;
    }
    throw new Error("the app and the simulator did not settle");
  }

  return {
    locus,
    webhookUrl,
    appUrl,
    settle,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
