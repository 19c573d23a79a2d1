/**
 * What every piece of the app's work needs, built by `app/` from a webhook
 * event: one repository's gateway, its config, the delivery being handled,
 * and who Locus itself is. Nothing here knows about Probot.
 */
import type { LocusConfig } from "../config/index.ts";
import type { GitHubGateway, Log, Permission } from "../github/index.ts";
import type { ReplyLimits } from "./reply-limits.ts";

export interface AppContext {
  readonly gateway: GitHubGateway;
  readonly config: LocusConfig;
  /** `X-GitHub-Delivery` of the event: the key that makes dispatch exactly-once. */
  readonly delivery: string;
  /**
   * A key for the signed body itself (`body-` and part of its SHA-256). The
   * signature does not cover `X-GitHub-Delivery`, so a captured body sent
   * again under a new id is the same event: dispatch is keyed on both.
   */
  readonly bodyKey?: string;
  /**
   * Whether this process asked GitHub to send the delivery with this GUID again
   * (the delivery sweeper): its event may have been handled before a restart.
   */
  readonly redeliveryRequested: (delivery: string) => boolean;
  readonly defaultBranch: string;
  readonly log: Log;
  /** Logins Locus acts as (its app's bot user); their events never trigger Locus. */
  readonly selfLogins: readonly string[];
  /** The repository permission of a user, cached briefly by the caller. */
  readonly permissionOf: (login: string) => Promise<Permission>;
  readonly now: () => Date;
  /** Bounds refusals and help/status answers (reply-limits.ts); unbounded when absent. */
  readonly replyLimits?: ReplyLimits;
}
