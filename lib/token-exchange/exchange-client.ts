/**
 * The Action's side of the token exchange: asks the runner for an OIDC token
 * for the app's audience (`@actions/core`'s getIDToken, passed in), sends it
 * to `<app-url>/locus/token` with the phase, and keeps each phase's token
 * until five minutes before it expires, so a long run asks again in time.
 * Concurrent callers share one request per phase.
 */
import type { Log } from "../github/index.ts";
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
}

export interface PhaseTokens {
  token(phase: Phase): Promise<string>;
}

interface Held {
  readonly token: string;
  readonly expiresAt: number;
}

export function createExchangeClient(options: ExchangeClientOptions): PhaseTokens {
  const appUrl = options.appUrl.replace(/\/+$/, "");
  const audience = options.audience ?? appUrl;
  const refreshBefore = options.refreshBeforeMs ?? 5 * 60_000;
  const send = options.fetch ?? fetch;
  const held = new Map<Phase, Promise<Held>>();

  async function exchange(phase: Phase): Promise<Held> {
    const idToken = await options.idToken(audience);
    const response = await send(`${appUrl}/locus/token`, {
      method: "POST",
      headers: { authorization: `Bearer ${idToken}`, "content-type": "application/json" },
      body: JSON.stringify({ phase }),
    });
    const body = (await response.json().catch(() => ({}))) as {
      token?: string;
      expires_at?: string;
      reason?: string;
      error?: string;
    };
    if (!response.ok || !body.token || !body.expires_at) {
      throw new Error(
        `The Locus app at ${appUrl} refused a ${phase} token (${response.status}${body.error ? ` ${body.error}` : ""}): ${body.reason ?? "no reason given"}`,
      );
    }
    options.onToken?.(body.token);
    options.log.info(`Locus: ${phase} token received from the app, valid until ${body.expires_at}`);
    return { token: body.token, expiresAt: Date.parse(body.expires_at) };
  }

  return {
    async token(phase) {
      const current = held.get(phase);
      if (current) {
        const value = await current.catch(() => undefined);
        if (value && value.expiresAt - options.now().getTime() > refreshBefore) return value.token;
        // Another caller may have started the next request meanwhile.
        const replaced = held.get(phase);
        if (replaced && replaced !== current) return (await replaced).token;
      }
      const next = exchange(phase);
      held.set(phase, next);
      next.catch(() => {
        if (held.get(phase) === next) held.delete(phase);
      });
      return (await next).token;
    },
  };
}
