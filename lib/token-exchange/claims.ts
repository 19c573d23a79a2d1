/**
 * The claims of a GitHub Actions OIDC token that the exchange reads, and only
 * those (GitHub adds more). Signature, issuer, audience and times are checked
 * by the verifier before these are parsed.
 * https://docs.github.com/en/actions/reference/security/oidc#oidc-token-claims
 */
import { z } from "zod";

const numericString = z
  .union([z.string().regex(/^[0-9]+$/), z.number().int().nonnegative()])
  .transform(String);

export const actionsClaimsSchema = z.object({
  repository: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  repository_id: numericString,
  repository_owner: z.string(),
  workflow_ref: z.string(),
  job_workflow_ref: z.string(),
  run_id: numericString,
  run_attempt: numericString,
  /** The token's own id: each OIDC token is traded once (mint-ledger.ts). */
  jti: z.string().min(1),
  exp: z.number(),
  event_name: z.string(),
  ref: z.string(),
  sha: z.string(),
  actor: z.string(),
  runner_environment: z.string().optional(),
});

export type ActionsClaims = z.output<typeof actionsClaimsSchema>;

/** What a refusal is logged with: the claims that name the run, never the token. */
export function claimsForLog(claims: Partial<Record<keyof ActionsClaims, unknown>>): string {
  const keys = [
    "repository",
    "workflow_ref",
    "job_workflow_ref",
    "run_id",
    "event_name",
    "ref",
    "actor",
  ] as const;
  return keys
    .filter((key) => claims[key] !== undefined)
    .map((key) => `${key}=${JSON.stringify(claims[key])}`)
    .join(" ");
}
