/**
 * The Locus app: registers one thin handler per trigger (docs/contracts.md "Triggers"). Every
 * handler is acknowledged at once and its work runs on the work queue. The
 * events registered here are the ones the delivery sweeper may ask GitHub to
 * send again after a restart.
 */
import type { ApplicationFunction, Context, Probot } from "probot";
import type { AppContext } from "../lib/app/app-context.ts";
import {
  createDeliverySweeper,
  type DeliverySweeper,
  type SweepReport,
} from "../lib/app/delivery-sweeper.ts";
import { createPermissionCache } from "../lib/trust/permission-cache.ts";
import { createReplyLimits } from "../lib/app/reply-limits.ts";
import type { Permission } from "../lib/github/index.ts";
import { issueOfBranch } from "../lib/naming/branches.ts";
import {
  wantsChangesRequested,
  wantsFailedCheckSuite,
  wantsComment,
  wantsLabel,
  wantsLocusPullRequest,
  wantsLocusRun,
  wantsClosedLocusPullRequest,
  wantsMilestone,
} from "./event-filters.ts";
import { onCheckSuite } from "./handlers/check-suite.ts";
import { onInstallation } from "./handlers/installation.ts";
import { onIssueComment } from "./handlers/issue-comment.ts";
import { onIssueDemilestoned, onIssueLabeled, onIssueMilestoned } from "./handlers/issues.ts";
import { onMilestoneChanged } from "./handlers/milestone.ts";
import { onPullRequestClosed, onPullRequestOpened, onReviewSubmitted } from "./handlers/pull-request.ts";
import { onWorkflowRun } from "./handlers/workflow-run.ts";
import { gitHubDeliveryLog } from "./delivery-log.ts";
import { bodyKeyOf, buildContext, reportConfigErrors, type LocusServices } from "./locus-context.ts";
import { logPort } from "./probot-log.ts";
import { createInstallationEtags } from "./installation-etags.ts";
import { createKeyedLanes } from "./keyed-lanes.ts";
import { createRecentDeliveries } from "./recent-deliveries.ts";
import { startReconciler, type ReconcilerOptions } from "./reconciler.ts";
import { appIdentityOf } from "./app-identity.ts";
import { createWorkQueue, type WorkQueue } from "./work-queue.ts";

export interface LocusAppOptions {
  readonly now?: () => Date;
  /** How long a looked-up permission is trusted. */
  readonly permissionTtlMs?: number;
  /** Run the reconciler on a timer (servers); off when absent. */
  readonly reconcile?: ReconcilerOptions;
}

export interface LocusApp {
  readonly appFn: ApplicationFunction;
  /** Work in flight; tests and shutdown wait on `drain()`. */
  readonly work: WorkQueue;
  /**
   * Asks GitHub to redeliver the webhooks this app lost (lib/app/delivery-sweeper.ts); the server
   * calls it once it listens, the reconciler's timer after that. Never rejects once the app is loaded.
   */
  sweepDeliveries(): Promise<SweepReport>;
}

function issueNumberOf(context: Context): number | undefined {
  const payload = context.payload as {
    issue?: { number: number };
    pull_request?: { number: number };
    workflow_run?: { head_branch?: string | null };
    check_suite?: { head_branch?: string | null };
  };
  // CI on a Locus branch is about its task's issue, where its fix-ci rounds are counted.
  const ciBranch = payload.workflow_run?.head_branch ?? payload.check_suite?.head_branch;
  return (
    payload.issue?.number ?? payload.pull_request?.number ?? (ciBranch ? issueOfBranch(ciBranch) : undefined)
  );
}

export function createLocusApp(options: LocusAppOptions = {}): LocusApp {
  let work: WorkQueue | undefined;
  let sweeper: DeliverySweeper | undefined;
  const queue = (): WorkQueue => {
    if (!work) throw new Error("the Locus app is not loaded");
    return work;
  };
  const appFn: ApplicationFunction = (app: Probot) => {
    const log = logPort(app.log);
    work = createWorkQueue(log);
    const now = options.now ?? (() => new Date());
    // The events registered below, which the sweeper may ask GitHub to send again.
    const handled = new Set<string>();
    const listen: Probot["on"] = (names, callback) => {
      for (const name of [names].flat()) handled.add(name);
      app.on(names, callback);
    };
    const deliverySweeper = createDeliverySweeper({
      log: gitHubDeliveryLog(app),
      logger: log,
      now,
      actsOn: (event, action) => handled.has(event) || handled.has(`${event}.${action ?? ""}`),
    });
    sweeper = deliverySweeper;
    const services: LocusServices = {
      log,
      now,
      selfLogins: () => appIdentityOf(app).selfLogins(),
      permissions: createPermissionCache<Permission>({
        ttlMs: options.permissionTtlMs ?? 60_000,
        now: () => now().getTime(),
      }),
      redeliveryRequested: (guid) => deliverySweeper.redeliveryRequested(guid),
      etagsFor: createInstallationEtags(),
      replyLimits: createReplyLimits(() => now().getTime()),
    };

    const recent = createRecentDeliveries();
    const lanes = createKeyedLanes();

    function on<E extends Context>(
      handler: (ctx: AppContext, context: E) => Promise<void>,
      wanted: (context: E) => boolean = () => true,
    ) {
      return (context: E) => {
        if (!wanted(context)) {
          log.debug(`${context.name} ${context.id} is not for Locus`);
          return;
        }
        if (!recent.firstTime(context.id)) {
          log.info(`${context.name} ${context.id} was already taken; ignoring the redelivery`);
          return;
        }
        // A captured signed body replayed under a new delivery id is the same event.
        if (!recent.firstTime(bodyKeyOf(context.payload))) {
          log.warn(`${context.name} ${context.id} repeats the body of an event already taken; ignoring it`);
          return;
        }
        // Events about one issue or PR are handled one after another, so two at once
        // (a double `/locus run`) cannot both read the same state and both dispatch.
        const repository = (context.payload as { repository?: { full_name?: string } }).repository;
        const number = issueNumberOf(context);
        const lane = number === undefined ? undefined : `${repository?.full_name ?? ""}#${number}`;
        queue().enqueue(`${context.name} ${context.id}`, () =>
          lanes.run(lane, async () => {
            const built = await buildContext(context, services);
            if (built.ok) return handler(built.ctx, context);
            const issue = issueNumberOf(context);
            if (issue !== undefined) await reportConfigErrors(built.gateway, issue, built.errors);
            else
              log.warn(
                `${context.name} ${context.id}: invalid config: ${built.errors.map((e) => e.message).join("; ")}`,
              );
          }),
        );
      };
    }

    if (options.reconcile) startReconciler(app, services, options.reconcile, sweeper);

    listen(["installation.created", "installation_repositories.added"], (context) => {
      queue().enqueue(`${context.name} ${context.id}`, () => onInstallation(context, log));
    });
    listen("issues.labeled", on(onIssueLabeled, wantsLabel));
    listen("issues.milestoned", on(onIssueMilestoned));
    listen("issues.demilestoned", on(onIssueDemilestoned));
    listen(["milestone.created", "milestone.edited"], on(onMilestoneChanged, wantsMilestone));
    listen("issue_comment.created", on(onIssueComment, wantsComment));
    listen("pull_request.closed", on(onPullRequestClosed, wantsClosedLocusPullRequest));
    listen("pull_request.opened", on(onPullRequestOpened, wantsLocusPullRequest));
    listen("pull_request_review.submitted", on(onReviewSubmitted, wantsChangesRequested));
    listen("workflow_run.completed", on(onWorkflowRun, wantsLocusRun));
    listen("check_suite.completed", on(onCheckSuite, wantsFailedCheckSuite));
  };
  return {
    appFn,
    work: {
      enqueue: (l, w) => queue().enqueue(l, w),
      drain: () => work?.drain() ?? Promise.resolve(),
      get size() {
        return work?.size ?? 0;
      },
    },
    sweepDeliveries: () => {
      if (!sweeper) return Promise.reject(new Error("the Locus app is not loaded"));
      return sweeper.sweep();
    },
  };
}
