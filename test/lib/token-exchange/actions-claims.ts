/** The claims of a Locus run's OIDC token that every exchange rule accepts: tests change one claim at a time. */
import type { ActionsClaims } from "../../../lib/token-exchange/claims.ts";

export const LOCUS_RUN_CLAIMS: ActionsClaims = {
  repository: "acme/app",
  repository_id: "42",
  repository_owner: "acme",
  workflow_ref: "acme/app/.github/workflows/locus.yml@refs/heads/main",
  job_workflow_ref: "locus-dev/locus/.github/workflows/locus.yml@refs/tags/v1",
  run_id: "7",
  run_attempt: "1",
  jti: "a1",
  exp: 1_800_000_000,
  event_name: "workflow_dispatch",
  ref: "refs/heads/main",
  sha: "abc",
  actor: "locus[bot]",
};
