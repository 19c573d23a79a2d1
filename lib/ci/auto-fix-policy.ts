/**
 * When a CI failure on a Locus PR starts a fix-ci round by itself: never on a
 * head already attempted, and at most `maxAttempts` rounds in a row without a
 * human push or comment in between; past that, Locus says once what is left
 * and stops until a human acts. Pure: the state lives in the linked issue's
 * status comment.
 */
import type { CiFixState } from "../status/status-comment.ts";

export const NO_CI_FIX: CiFixState = { heads: [], streak: 0, stopped: false };

/** Heads remembered: enough for any run of rounds, without growing forever. */
const MAX_HEADS = 20;

export type AutoFixDecision =
  | { readonly action: "dispatch"; readonly next: CiFixState }
  | { readonly action: "skip"; readonly reason: "same-head" }
  | { readonly action: "stop"; readonly next: CiFixState; readonly notify: boolean };

export interface CiFailureFacts {
  readonly headSha: string;
  /** A human pushed the failing head, or commented on the PR, since the last automatic round. */
  readonly humanActed: boolean;
  readonly maxAttempts: number;
  readonly at: string;
}

export function decideAutoFix(state: CiFixState, facts: CiFailureFacts): AutoFixDecision {
  if (state.heads.includes(facts.headSha)) return { action: "skip", reason: "same-head" };
  const streak = facts.humanActed ? 0 : state.streak;
  const stopped = facts.humanActed ? false : state.stopped;
  if (streak >= facts.maxAttempts)
    return { action: "stop", next: { ...state, streak, stopped: true }, notify: !stopped };
  return { action: "dispatch", next: attempted(state, facts.headSha, streak + 1, facts.at) };
}

/** A round asked for by hand: it counts as human activity, so the automatic streak starts again. */
export function manualFix(state: CiFixState, headSha: string, at: string): CiFixState {
  return attempted(state, headSha, 0, at);
}

function attempted(state: CiFixState, headSha: string, streak: number, at: string): CiFixState {
  const heads = state.heads.includes(headSha) ? state.heads : [...state.heads, headSha].slice(-MAX_HEADS);
  return { heads, streak, lastAt: at, stopped: false };
}
