/**
 * Each phase's token is minted once per run attempt, and each OIDC token is traded once. A Locus
 * run asks for the agent token when it starts and the publish token when it first publishes,
 * and keeps each; so a second request for the same run, attempt and phase means someone else
 * holds the runner's OIDC request token (an escape from the sandbox, a step of another action)
 * and is racing Locus for it. Refusing it does not stop the first caller, but whoever comes
 * second is refused: an attacker who asks first makes Locus's own request fail, loudly, instead
 * of both holding the token. An OIDC token's `jti` is accepted once, so a token seen in transit
 * cannot be traded again while it is valid.
 *
 * The one exception is renewal: GitHub's installation tokens last an hour and a long run asks
 * again five minutes before its token expires (exchange-client.ts), so a phase can be minted
 * again once the previous token has less than `renewWithinMs` (ten minutes) left.
 * In memory per app process, with the clock passed in, like the rate limiter.
 */
import type { Phase } from "./phases.ts";
import { refuse } from "./refusal.ts";

export interface MintRequest {
  readonly runId: string;
  readonly runAttempt: string;
  readonly phase: Phase;
}

export interface MintReservation {
  /** The token was minted: later requests for this phase wait for its renewal window. */
  minted(expiresAt: string): void;
  /** Minting failed: the run may ask again. */
  failed(): void;
}

export interface MintLedger {
  /** Accepts an OIDC token once (by `jti`, kept until its `exp`, in seconds); refuses it after. */
  useIdToken(jti: string, expSeconds: number): void;
  /** Reserves the phase's mint for the run attempt, or refuses: it holds a token not yet due for renewal. */
  reserve(request: MintRequest): MintReservation;
}

const DEFAULT_RENEW_WITHIN_MS = 10 * 60_000;
const PENDING = Number.POSITIVE_INFINITY;

export function createMintLedger(options: { now: () => number; renewWithinMs?: number }): MintLedger {
  const renewWithin = options.renewWithinMs ?? DEFAULT_RENEW_WITHIN_MS;
  /** jti → when its token expires (ms); forgotten after, when the verifier refuses it anyway. */
  const usedIds = new Map<string, number>();
  /** run/attempt/phase → when its token expires (ms), or PENDING while being minted. */
  const held = new Map<string, number>();

  function forgetExpired(now: number): void {
    for (const [jti, expiresAt] of usedIds) if (expiresAt < now) usedIds.delete(jti);
    for (const [key, expiresAt] of held) if (expiresAt < now) held.delete(key);
  }

  return {
    useIdToken(jti, expSeconds) {
      const now = options.now();
      forgetExpired(now);
      if (usedIds.has(jti))
        refuse("already-minted", "this OIDC token was traded already; ask the runner for a new one");
      // A minute past `exp`: the verifier's clock tolerance.
      usedIds.set(jti, expSeconds * 1000 + 60_000);
    },
    reserve(request) {
      const now = options.now();
      forgetExpired(now);
      const key = `${request.runId}/${request.runAttempt}/${request.phase}`;
      const expiresAt = held.get(key);
      if (expiresAt !== undefined && expiresAt - now > renewWithin) {
        refuse(
          "already-minted",
          `run ${request.runId} (attempt ${request.runAttempt}) has its ${request.phase} token already; each phase is minted once per run`,
        );
      }
      held.set(key, PENDING);
      return {
        minted: (at) => {
          const parsed = Date.parse(at);
          held.set(key, Number.isNaN(parsed) ? now + 60 * 60_000 : parsed);
        },
        failed: () => {
          if (expiresAt === undefined) held.delete(key);
          else held.set(key, expiresAt);
        },
      };
    },
  };
}
