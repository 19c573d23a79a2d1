/** Refuses configurations in which the app would run insecurely. */

const PROBOT_FALLBACK_SECRET = "development";

export function checkStartup(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const configured = Boolean(env.APP_ID) || Boolean(env.PRIVATE_KEY) || Boolean(env.PRIVATE_KEY_PATH);
  if (!configured) return undefined;
  const secret = env.WEBHOOK_SECRET ?? "";
  if (!secret) {
    return "Locus will not start without WEBHOOK_SECRET: unsigned webhooks could make it run code. Set the secret you gave the GitHub App.";
  }
  if (secret === PROBOT_FALLBACK_SECRET || secret.length < 16) {
    return "WEBHOOK_SECRET is too weak (at least 16 characters, not Probot's placeholder). Generate one with `openssl rand -hex 32` and set it on the GitHub App too.";
  }
  return undefined;
}
