/**
 * Whether the run asking for a token is one Locus started. A Locus run is
 * named `Locus <mode> #<n> (<delivery>)`; the app dispatches it under its own
 * bot identity, and a run the stale sweep or the reconciler re-dispatched
 * carries a delivery (`stale-<run>-<issue>`, `reconcile-<time>-<issue>`) that
 * Locus recorded in that issue's status comment, as it records every delivery
 * it acts on. A run someone dispatched by hand with made-up inputs has
 * neither. The stale sweep's own run (its schedule, or a writer starting it)
 * is accepted as it is.
 */
import { isLocus } from "../github/locus-identity.ts";
import { parseRunName } from "../dispatch/dispatch-inputs.ts";
import { refuse } from "./refusal.ts";
import type { WorkflowKind } from "./claim-rules.ts";
import type { Phase } from "./phases.ts";

export interface RunFacts {
  readonly id: number;
  readonly path: string;
  readonly status: string;
  readonly displayTitle: string;
  readonly actor: string;
  readonly triggeringActor: string;
}

export interface DeliveryRecord {
  /** Who wrote the issue's status comment; null when it has none. */
  readonly author: string | null;
  readonly deliveries: readonly string[];
}

/** What is left to look up before the run is accepted. */
export type RunVerdict =
  { readonly ok: true } | { readonly ok: false; readonly issue: number; readonly delivery: string };

const RE_DISPATCHED = /^(?:stale|reconcile)-[0-9]+-([1-9][0-9]*)$/;

export function checkRun(
  run: RunFacts | null,
  expected: { kind: WorkflowKind; workflow: string; botLogin: string },
): RunVerdict {
  if (!run) return refuse("unknown-run", "the token's run_id names no run of this repository");
  const file = expected.kind === "stale" ? "locus-stale.yml" : expected.workflow;
  if (run.path.replace(/@.*$/, "").toLowerCase() !== `.github/workflows/${file}`.toLowerCase()) {
    refuse("unknown-run", `run ${run.id} runs ${run.path}, not .github/workflows/${file}`);
  }
  if (run.status === "completed") refuse("unknown-run", `run ${run.id} has finished`);
  if (expected.kind === "stale") return { ok: true };
  const parsed = parseRunName(run.displayTitle);
  if (!parsed)
    refuse("unknown-run", `run ${run.id} (${JSON.stringify(run.displayTitle)}) is not a run Locus named`);
  // A re-run keeps its first actor: it repeats what Locus dispatched.
  if (isLocus([expected.botLogin], run.actor)) return { ok: true };
  const anchor = RE_DISPATCHED.exec(parsed.delivery)?.[1];
  if (anchor === undefined) {
    refuse("unknown-run", `run ${run.id} was started by ${run.triggeringActor}, not by Locus`);
  }
  return { ok: false, issue: Number(anchor), delivery: parsed.delivery };
}

/** Modes that only read code and answer in comments, and so never publish. */
const READ_ONLY_MODES = new Set(["ask", "plan"]);

/** A publish token only for runs that deliver code, reviews or PRs: never the stale sweep, `ask` or `plan`. */
export function checkPhase(
  phase: Phase,
  kind: WorkflowKind,
  run: Pick<RunFacts, "id" | "displayTitle">,
): void {
  if (phase !== "publish") return;
  const mode = kind === "stale" ? "stale" : parseRunName(run.displayTitle)?.mode;
  if (mode === "stale" || (mode !== undefined && READ_ONLY_MODES.has(mode))) {
    refuse("wrong-phase", `run ${run.id} (mode ${mode}) publishes nothing, so it gets no publish token`);
  }
}

/** The second half of `checkRun`: the delivery must be in the status comment Locus itself wrote. */
export function checkDeliveryRecord(
  run: RunFacts,
  delivery: string,
  record: DeliveryRecord,
  botLogin: string,
): void {
  if (
    record.author === null ||
    !isLocus([botLogin], record.author) ||
    !record.deliveries.includes(delivery)
  ) {
    refuse("unknown-run", `run ${run.id}'s delivery ${delivery} is not one Locus recorded`);
  }
}
