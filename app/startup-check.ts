/** Refuses configurations in which the app would run insecurely. */

const PROBOT_FALLBACK_SECRET = "development";

type Env = Readonly<Record<string, string | undefined>>;

/** An app id or key is set: run the app, not Probot's setup flow. */
export function isConfigured(env: Env): boolean {
  return Boolean(env.APP_ID) || Boolean(env.PRIVATE_KEY) || Boolean(env.PRIVATE_KEY_PATH);
}

export function checkStartup(env: Env): string | undefined {
  if (!isConfigured(env)) return undefined;
  const secret = env.WEBHOOK_SECRET ?? "";
  if (!secret) {
    return "Locus will not start without WEBHOOK_SECRET: unsigned webhooks could make it run code. Set the secret you gave the GitHub App.";
  }
  if (secret === PROBOT_FALLBACK_SECRET || secret.length < 16) {
    return "WEBHOOK_SECRET is too weak (at least 16 characters, not Probot's placeholder). Generate one with `openssl rand -hex 32` and set it on the GitHub App too.";
  }
  return undefined;
}
