import { scrubEnvironment } from "../../sandbox/environment.ts";

/**
 * A CLI provider's environment: stripped of secrets like the built-in agent's shell, except the
 * credentials the CLI itself needs to reach its model (which its own shell tool then inherits).
 */
export function withCredentials(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): Record<string, string> {
  const out = scrubEnvironment(env);
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
