/**
 * Why the token exchange said no: an HTTP status, a short machine-readable
 * code and a sentence for the person reading the job's log. Thrown by the
 * rules and adapters, answered as JSON by the route.
 */
export type RefusalCode =
  | "malformed-request"
  | "missing-token"
  | "invalid-token"
  | "expired-token"
  | "wrong-audience"
  | "wrong-issuer"
  | "not-installed"
  | "wrong-repository"
  | "wrong-event"
  | "wrong-ref"
  | "wrong-workflow"
  | "unknown-run"
  | "wrong-phase"
  | "rate-limited"
  | "already-minted"
  | "not-configured";

const STATUS: Record<RefusalCode, number> = {
  "malformed-request": 400,
  "missing-token": 401,
  "invalid-token": 401,
  "expired-token": 401,
  "wrong-audience": 401,
  "wrong-issuer": 401,
  "not-installed": 403,
  "wrong-repository": 403,
  "wrong-event": 403,
  "wrong-ref": 403,
  "wrong-workflow": 403,
  "unknown-run": 403,
  "wrong-phase": 403,
  "rate-limited": 429,
  "already-minted": 409,
  "not-configured": 503,
};

export class Refusal extends Error {
  readonly status: number;
  readonly code: RefusalCode;
  readonly reason: string;
  /** For a 429: when to ask again, sent as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: RefusalCode, reason: string, retryAfterSeconds?: number) {
    super(reason);
    this.name = "Refusal";
    this.code = code;
    this.reason = reason;
    this.status = STATUS[code];
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function refuse(code: RefusalCode, reason: string, retryAfterSeconds?: number): never {
  throw new Refusal(code, reason, retryAfterSeconds);
}
