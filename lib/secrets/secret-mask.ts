/** Masks the run's own secrets by value, then anything token-shaped, before text leaves the process. */
import { redactSecrets } from "../prompt/sanitize.ts";

export function createSecretMask(secrets: readonly string[]): (text: string) => string {
  const known = secrets.filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
  return (text) => {
    let masked = text;
    for (const secret of known) masked = masked.split(secret).join("***");
    return redactSecrets(masked);
  };
}
