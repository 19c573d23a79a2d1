/**
 * The Action's side of the token exchange: asks the runner for an OIDC token
 * for the app's audience (`@actions/core`'s getIDToken, passed in), sends it
 * to `<app-url>/locus/token` with the phase, and keeps each phase's token
 * until five minutes before it expires, so a long run asks again in time.
 * Concurrent callers share one request per phase. A network error, a 5xx or
 * a 429 is asked again with backoff (exchange-retry.ts); a refusal is final
 * and its error carries the app's reason. The app answers which bot the
 * tokens act as: that is who Locus is in this run.
 */
import type { LocusIdentity } from "../github/locus-identity.ts";
import type { Log } from "../github/index.ts";
import {
  DEFAULT_RETRY_POLICY,
  isRetryable,
  retryAfterMs,
  retryDelayMs,
  type RetryPolicy,
} from "./exchange-retry.ts";
import type { Phase } from "./phases.ts";

export interface ExchangeClientOptions {
  readonly appUrl: string;
  /** The `aud` to ask for (default: the app URL). */
  readonly audience?: string;
  readonly idToken: (audience: string) => Promise<string>;
  readonly now: () => Date;
  readonly log: Log;
  /** Told of every token received, to mask it in logs. */
  readonly onToken?: (token: string) => void;
  readonly refreshBeforeMs?: number;
  readonly fetch?: typeof fetch;
  readonly retry?: RetryPolicy;
  /** Waits between attempts; injectable so tests do not wait for real. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** In [0, 1): the jitter of each wait. */
  readonly random?: () => number;
}

export interface PhaseTokens {
  token(phase: Phase): Promise<string>;
  /** The bot the app's tokens act as (asks for an agent token if none is held). */
  bot(): Promise<LocusIdentity>;
}

interface AnswerBody {
  readonly token?: string;
  readonly expires_at?: string;
  readonly reason?: string;
  readonly error?: string;
  readonly bot?: unknown;
}

interface Attempt {
  /** Undefined when no answer came (a network error). */
  readonly status: number | undefined;
  readonly ok: boolean;
  readonly body: AnswerBody;
  readonly retryAfter: string | null;
}

interface Held {
  readonly token: string;
  readonly expiresAt: number;
  readonly bot: LocusIdentity;
}

function botOf(value: unknown): LocusIdentity | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { login, id } = value as { login?: unknown; id?: unknown };
  return typeof login === "string" && login !== "" && typeof id === "number" ? { login, id } : undefined;
}

export function createExchangeClient(options: ExchangeClientOptions): PhaseTokens {
  const appUrl = options.appUrl.replace(/\/+$/, "");
  const audience = options.audience ?? appUrl;
  const refreshBefore = options.refreshBeforeMs ?? 5 * 60_000;
  const send = options.fetch ?? fetch;
  const held = new Map<Phase, Promise<Held>>();

  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;

  async function attempt(phase: Phase): Promise<Attempt> {
    // Outside the try: a runner that offers no OIDC token will not offer one later.
    const idToken = await options.idToken(audience);
    try {
      const response = await send(`${appUrl}/locus/token`, {
        method: "POST",
        headers: { authorization: `Bearer ${idToken}`, "content-type": "application/json" },
        body: JSON.stringify({ phase }),
      });
      const body = (await response.json().catch(() => ({}))) as AnswerBody;
      return {
        status: response.status,
        ok: response.ok,
        body,
        retryAfter: response.headers.get("retry-after"),
      };
    } catch (error) {
      const said = networkErrorText(error);
      return {
        status: undefined,
        ok: false,
        body: { reason: `could not reach the app: ${said}` },
        retryAfter: null,
      };
    }
  }

  async function exchange(phase: Phase): Promise<Held> {
    for (let tries = 1; ; tries++) {
      const { status, ok, body, retryAfter } = await attempt(phase);
      if (ok && body.token && body.expires_at) {
        options.onToken?.(body.token);
        const bot = botOf(body.bot);
        if (!bot) {
          throw new Error(
            `The Locus app at ${appUrl} did not say which bot its ${phase} token acts as; update the app`,
          );
        }
        options.log.info(
          `Locus: ${phase} token received from the app, acting as ${bot.login}, valid until ${body.expires_at}`,
        );
        return { token: body.token, expiresAt: Date.parse(body.expires_at), bot };
      }
      const answered = `${status ?? "network error"}${body.error ? ` ${body.error}` : ""}`;
      const reason = body.reason ?? "no reason given";
      const wait = isRetryable(status, body.error)
        ? retryDelayMs(retry, tries, retryAfterMs(retryAfter, options.now().getTime()), random())
        : undefined;
      if (wait === undefined) {
        const after = tries > 1 ? ` after ${tries} attempts` : "";
        throw new Error(
          `The Locus app at ${appUrl} refused ${phase === "agent" ? "an" : "a"} ${phase} token (${answered})${after}: ${reason}`,
        );
      }
      options.log.warn(
        `Locus: the app did not give a ${phase} token (${answered}: ${reason}); asking again in ${Math.round(wait / 1000)}s (attempt ${tries + 1} of ${retry.attempts})`,
      );
      await sleep(wait);
    }
  }

  async function fresh(phase: Phase): Promise<Held> {
    const current = held.get(phase);
    if (current) {
      const value = await current.catch(() => undefined);
      if (value && value.expiresAt - options.now().getTime() > refreshBefore) return value;
      // Another caller may have started the next request meanwhile.
      const replaced = held.get(phase);
      if (replaced && replaced !== current) return replaced;
    }
    const next = exchange(phase);
    held.set(phase, next);
    next.catch(() => {
      if (held.get(phase) === next) held.delete(phase);
    });
    return next;
  }

  return {
    token: async (phase) => (await fresh(phase)).token,
    bot: async () => (await fresh("agent")).bot,
  };
}

/** fetch's "fetch failed" hides the reason (ECONNREFUSED, a reset) in its cause. */
function networkErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}
