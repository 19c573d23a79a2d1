/** What the intake benchmark's processes agree on; imported by all three, so it starts nothing. */
export const OWNER = "octo";
export const REPO = "demo";
export const SECRET = "bench-webhook-secret-0123456789abcdef";
export const WEBHOOK_PATH = "/api/github/webhooks";
/** The issue a delivery is sent twice for: the second must cost no GitHub call. */
export const REDELIVERED_ISSUE = 2;
/**
 * Issues the slow-GitHub run queues, one delivery each, all at once: each must end in one
 * dispatch, however slow GitHub is. They carry `locus:queued` on GitHub, as after a person's
 * label, since the app re-reads the issue and drops an event whose label is gone.
 */
export const SLOW_ISSUES = Array.from({ length: 50 }, (_, index) => REDELIVERED_ISSUE + 1 + index);

export interface SimReady {
  readonly apiUrl: string;
  readonly appId: number;
  readonly privateKey: string;
  readonly installationId: number;
}

export interface SimCounts {
  readonly calls: number;
  readonly configReads: number;
  readonly dispatches: number;
  /** Answers of 400 and above, by status: what GitHub refused while the work ran. */
  readonly refused: Record<string, number>;
  /** GETs of a path read before in the run, and how many of them GitHub answered 304. */
  readonly rereads: number;
  readonly notModified: number;
  /** The paths most often re-read in full (200), with their counts since the start. */
  readonly readInFull: Record<string, number>;
}

export interface TargetMemory {
  readonly rss: number;
  readonly heapUsed: number;
}

export interface TargetReady {
  readonly url: string;
}
