/** What the intake benchmark's processes agree on; imported by all three, so it starts nothing. */
export const OWNER = "octo";
export const REPO = "demo";
export const SECRET = "bench-webhook-secret-0123456789abcdef";
export const WEBHOOK_PATH = "/api/github/webhooks";
/** Issues the "queued" deliveries of the slow-GitHub run name; each must end in one dispatch. */
export const QUEUED_ISSUES = [2, 3, 4];
/** The issue a delivery is sent twice for: the second must cost no GitHub call. */
export const REDELIVERED_ISSUE = 5;

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
}

export interface TargetReady {
  readonly url: string;
}
