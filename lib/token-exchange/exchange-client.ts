/**
 * The Action's side of the token exchange: asks the runner for an OIDC token
 * for the app's audience (`@actions/core`'s getIDToken, passed in), sends it
 * to `<app-url>/locus/token` with the phase, and keeps each phase's token
 * until five minutes before it expires, so a long run asks again in time.
 * Concurrent callers share one request per phase. The app answers which bot
 * the tokens act as: that is who Locus is in this run.
 */
import type { LocusIdentity } from "../auth/locus-identity.ts";
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
  /** The bot the app's tokens act as (asks for an agent token if none is held). */
  bot(): Promise<LocusIdentity>;
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
      bot?: unknown;
    };
    if (!response.ok || !body.token || !body.expires_at) {
      throw new Error(
        `The Locus app at ${appUrl} refused a ${phase} token (${response.status}${body.error ? ` ${body.error}` : ""}): ${body.reason ?? "no reason given"}`,
      );
    }
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
