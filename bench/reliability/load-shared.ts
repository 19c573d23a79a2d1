/** What the load benchmark's processes agree on; imported by all of them, so it starts nothing. */
import type { SimReady } from "../webhook/shared.ts";

/** The load check (docs/reliability.md): 1,000 deliveries in 10 s across 50 installations and 200 repositories. */
export const INSTALLATIONS = 50;
export const REPOS_PER_INSTALLATION = 4;
export const ISSUES_PER_REPO = 5;
export const SEND_SECONDS = 10;

export interface LoadDelivery {
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface LoadSimReady extends SimReady {
  /** One signed `issues.labeled` (`locus:queued`) per issue, unsent. */
  readonly deliveries: readonly LoadDelivery[];
}

/** A write the app made to a repository (not a token mint), with its time and account. */
export interface Write {
  readonly at: number;
  readonly owner: string;
  readonly method: string;
  readonly path: string;
}

export interface LoadSimReport {
  readonly writes: readonly Write[];
  /** Dispatched runs per `owner/repo#issue`. */
  readonly dispatches: Record<string, number>;
  /** Answers of 400 and above, by status. */
  readonly refused: Record<string, number>;
}
