/**
 * The token exchange: a workflow run proves who it is with its OIDC token and
 * gets an installation token for its one repository, with only its phase's
 * permissions. Each step can refuse with a Refusal; the caller turns it into
 * a 4xx and logs it with the claims, never with the token.
 */
import type { LocusIdentity } from "../github/locus-identity.ts";
import type { ActionsClaims } from "./claims.ts";
import { checkWorkflowClaims } from "./claim-rules.ts";
import type { OidcVerifier } from "./oidc-verifier.ts";
import { isPhase, phasePermissions, type Phase, type PhasePermissions } from "./phases.ts";
import type { ExchangeBudget } from "./exchange-budget.ts";
import type { MintLedger } from "./mint-ledger.ts";
import { refuse } from "./refusal.ts";
import {
  checkDeliveryRecord,
  checkPhase,
  checkRun,
  type DeliveryRecord,
  type RunFacts,
} from "./run-rules.ts";

/** What the exchange reads from and asks of GitHub, as this app. */
export interface ExchangeGitHub {
  /** This app's installation on the repository, or null when it is not installed there. */
  installationOf(owner: string, repo: string): Promise<number | null>;
  /** The bot this app acts as (`<slug>[bot]` and its user id), read through this installation. */
  bot(installation: number): Promise<LocusIdentity>;
  /** The repository's id, default branch and configured Locus workflow file. */
  repository(
    installation: number,
    owner: string,
    repo: string,
  ): Promise<{ id: string; defaultBranch: string; workflow: string }>;
  run(installation: number, owner: string, repo: string, runId: number): Promise<RunFacts | null>;
  deliveryRecord(installation: number, owner: string, repo: string, issue: number): Promise<DeliveryRecord>;
  /** An installation token for one repository id with exactly these permissions. */
  mint(installation: number, repositoryId: number, permissions: PhasePermissions): Promise<MintedToken>;
}

export interface MintedToken {
  readonly token: string;
  readonly expiresAt: string;
  readonly permissions: Readonly<Record<string, string>>;
}

export interface ExchangeDeps {
  readonly verifier: OidcVerifier;
  readonly github: ExchangeGitHub;
  readonly limiter: ExchangeBudget;
  /** Each OIDC token traded once, each phase minted once per run attempt. */
  readonly ledger: MintLedger;
  readonly reusableWorkflows: readonly string[];
}

export interface ExchangeResult extends MintedToken {
  readonly phase: Phase;
  /** Who the token acts as: the Action learns its own login (and commit identity) from this. */
  readonly bot: LocusIdentity;
  readonly repository: string;
  readonly claims: ActionsClaims;
}

/** The request body: `{ "phase": "agent" | "publish" }`. Anything else it names is ignored. */
export function parsePhase(body: unknown): Phase {
  const phase = typeof body === "object" && body !== null ? (body as { phase?: unknown }).phase : undefined;
  if (!isPhase(phase))
    refuse(
      "malformed-request",
      'the body must be JSON naming the phase: {"phase":"agent"} or {"phase":"publish"}',
    );
  return phase;
}

export async function exchangeToken(
  deps: ExchangeDeps,
  token: string,
  body: unknown,
  onClaims: (claims: ActionsClaims) => void = () => undefined,
): Promise<ExchangeResult> {
  const phase = parsePhase(body);
  const claims = await deps.verifier.verify(token);
  onClaims(claims);
  deps.ledger.useIdToken(claims.jti, claims.exp);
  const [owner = "", repo = ""] = claims.repository.split("/");
  const budget = deps.limiter.take(claims.repository, claims.run_id);
  if (!budget.ok) {
    const seconds = Math.ceil(budget.retryAfterMs / 1000);
    const whose = budget.scope === "run" ? `run ${claims.run_id}` : claims.repository;
    refuse("rate-limited", `too many token requests for ${whose}; try again in ${seconds}s`, seconds);
  }
  const installation = await deps.github.installationOf(owner, repo);
  if (installation === null) refuse("not-installed", `Locus is not installed on ${claims.repository}`);
  // Three GitHub requests side by side rather than one after another; judged in the same order as
  // before, so a refusal still names the first rule broken.
  const runId = Number(claims.run_id);
  const reads = {
    facts: deps.github.repository(installation, owner, repo),
    bot: deps.github.bot(installation),
    run: deps.github.run(installation, owner, repo, runId),
  };
  for (const read of Object.values(reads)) read.catch(() => undefined);
  const facts = await reads.facts;
  const kind = checkWorkflowClaims(claims, {
    repositoryId: facts.id,
    defaultBranch: facts.defaultBranch,
    workflow: facts.workflow,
    reusableWorkflows: deps.reusableWorkflows,
  });
  const bot = await reads.bot;
  const botLogin = bot.login;
  const run = await reads.run;
  const verdict = checkRun(run, { kind, workflow: facts.workflow, botLogin });
  if (!verdict.ok && run) {
    const record = await deps.github.deliveryRecord(installation, owner, repo, verdict.issue);
    checkDeliveryRecord(run, verdict.delivery, record, botLogin);
  }
  if (run) checkPhase(phase, kind, run);
  const reservation = deps.ledger.reserve({ runId: claims.run_id, runAttempt: claims.run_attempt, phase });
  let minted: MintedToken;
  try {
    minted = await deps.github.mint(installation, Number(facts.id), phasePermissions(phase));
  } catch (error) {
    reservation.failed();
    throw error;
  }
  reservation.minted(minted.expiresAt);
  return { ...minted, phase, bot, repository: claims.repository, claims };
}
