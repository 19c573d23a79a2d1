/**
 * The run's private-registry credentials: the config's rules (`sandbox.network.credentials`)
 * with the values the workflow passed in `registry-credentials`. A secret the config names but
 * the workflow did not pass stops the run here, before any token exchange, sandbox or model call,
 * with one line naming it (never a value).
 */
import { credentialRules } from "./registry-credentials-schema.ts";
import type { LocusConfig } from "./schema.ts";
import { hostCredentials, missingSecrets, type HostCredential } from "../sandbox/registry-credentials.ts";

export interface RunRegistryCredentials {
  /** For the egress proxy. */
  readonly credentials: HostCredential[];
  /** Every value to mask: the secrets the config uses and the header values made from them. */
  readonly secrets: string[];
}

export function registryCredentialsFor(
  config: Pick<LocusConfig, "sandbox">,
  passed: Readonly<Record<string, string>>,
): RunRegistryCredentials {
  const rules = credentialRules(config.sandbox.network.credentials);
  const missing = missingSecrets(rules, passed);
  if (missing.length > 0) {
    throw new Error(
      `sandbox.network.credentials names ${missing.map((name) => `\`${name}\``).join(", ")}, which the workflow did not pass: add ${missing.length === 1 ? "it" : "them"} to the registry-credentials input (docs/sandbox.md#private-registries)`,
    );
  }
  const credentials = hostCredentials(rules, passed);
  const used = rules.map((rule) => passed[rule.secret] ?? "");
  const headers = credentials.flatMap((credential) => [
    credential.authorization,
    credential.authorization.replace(/^\S+ /, ""),
  ]);
  return { credentials, secrets: [...new Set([...used, ...headers])].filter((value) => value !== "") };
}
