/**
 * The environment of the agent's shell. The caller already builds it without credentials; this
 * is the second line of defence, applied again to every command, because one leaked token lets
 * a prompt-injected agent push or publish on the repository's behalf.
 */

const EXACT = new Set(["GITHUB_TOKEN", "GIT_CONFIG_PARAMETERS"]);
const PREFIXES = ["ACTIONS_", "INPUT_", "ANTHROPIC_", "GIT_CONFIG_"];
/** Anywhere in the name, any case: `NODE_AUTH_TOKEN`, `npm_config__authToken`, `AWS_SECRET_ACCESS_KEY`, `SSH_AUTH_SOCK`. */
const FRAGMENTS = ["TOKEN", "KEY", "SECRET", "PASSWORD", "CREDENTIAL", "PRIVATE", "AUTH", "ASKPASS"];

export function scrubEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const scrubbed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isSecretName(name)) continue;
    scrubbed[name] = value;
  }
  // Git must fail instead of waiting for a password, and ignore the machine's system config.
  scrubbed.GIT_TERMINAL_PROMPT = "0";
  scrubbed.GIT_CONFIG_NOSYSTEM = "1";
  return scrubbed;
}

export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    EXACT.has(upper) ||
    PREFIXES.some((prefix) => upper.startsWith(prefix)) ||
    FRAGMENTS.some((fragment) => upper.includes(fragment))
  );
}

/**
 * The values the shell's environment leaves out: a tool can still come across them (a process
 * of the same user can read `/proc/<parent>/environ`), so tool results are masked with them.
 */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= 8 && isSecretName(name)) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}
