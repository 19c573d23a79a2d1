/**
 * The app's own safety net, on a timer: for every repository of every
 * installation, repair what a dropped delivery or a crashed run left behind
 * (lib/triggers/reconcile.ts). Runs one repository at a time to stay gentle on the
 * rate limit; a failure in one repository does not stop the others. Each
 * tick first asks GitHub to redeliver lost webhooks (the delivery sweeper),
 * so the reconciler then repairs only what redelivery cannot.
 */
import type { Probot } from "probot";
import type { DeliverySweeper } from "../lib/app/delivery-sweeper.ts";
import { reconcileRepository } from "../lib/triggers/reconcile.ts";
import { createGateway } from "../lib/github/index.ts";
import { loadConfig } from "../lib/config/index.ts";
import { CONFIG_PATH, type LocusServices } from "./locus-context.ts";

export interface ReconcilerOptions {
  readonly everyMs: number;
  /** How long a queued issue may wait for its run before it is dispatched again. */
  readonly graceMinutes: number;
}

async function reconcileAll(app: Probot, services: LocusServices, graceMinutes: number): Promise<void> {
  const appOctokit = await app.auth();
  const installations = await appOctokit.paginate("GET /app/installations", { per_page: 100 });
  for (const installation of installations) {
    const octokit = await app.auth(installation.id);
    const repositories = await octokit.paginate("GET /installation/repositories", { per_page: 100 });
    for (const repository of repositories) {
      const repo = { owner: repository.owner.login, repo: repository.name };
      try {
        const gateway = createGateway({
          octokit,
          repo,
          log: services.log,
          etags: services.etagsFor(installation.id),
          // Status records count only when Locus wrote them, as in every event's gateway.
          ownLogins: await services.selfLogins(),
        });
        const loaded = loadConfig(await gateway.getFileContent(CONFIG_PATH));
        if (!loaded.ok) continue;
        const report = await reconcileRepository(
          {
            gateway,
            config: loaded.config,
            delivery: "reconcile",
            redeliveryRequested: services.redeliveryRequested,
            defaultBranch: repository.default_branch ?? "main",
            log: services.log,
            selfLogins: await services.selfLogins(),
            permissionOf: () => Promise.resolve("none"),
            now: services.now,
          },
          graceMinutes,
        );
        if (report.redispatched.length + report.markedFailed.length > 0) {
          services.log.info(
            `${repository.full_name}: re-dispatched ${report.redispatched.join(", ") || "none"}, ` +
              `marked failed ${report.markedFailed.join(", ") || "none"}`,
          );
        }
      } catch (error) {
        services.log.warn(
          `reconcile ${repository.full_name}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}

export function startReconciler(
  app: Probot,
  services: LocusServices,
  options: ReconcilerOptions,
  sweeper?: DeliverySweeper,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // The sweeper logs its own failures and never rejects.
    (sweeper?.sweep() ?? Promise.resolve())
      .then(() => reconcileAll(app, services, options.graceMinutes))
      .catch((error: unknown) =>
        services.log.warn(`reconcile: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        running = false;
      });
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
