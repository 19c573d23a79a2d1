/**
 * CI state the simulator keeps beside each repository — jobs of workflow
 * runs, check suites, check runs and their annotations — in a side table
 * keyed by the repository, so the core model stays as it is.
 */
import type { Repo } from "./model.ts";

export type CheckConclusion = "success" | "failure" | "neutral" | "cancelled" | "skipped" | "timed_out";

export interface CiStep {
  number: number;
  name: string;
  conclusion: CheckConclusion;
  // The step's output lines, without timestamps; the job log adds them.
  output: string[];
}

export interface CiAnnotation {
  path: string;
  startLine: number;
  endLine: number;
  level: "notice" | "warning" | "failure";
  title: string | null;
  message: string;
}

export interface CiOutput {
  title: string | null;
  summary: string | null;
  text: string | null;
}

// A check run; a workflow job is one too (its id is the job's id).
export interface CheckRun {
  id: number;
  suiteId: number;
  name: string;
  headSha: string;
  conclusion: CheckConclusion;
  startedAt: string;
  completedAt: string;
  output: CiOutput;
  annotations: CiAnnotation[];
  // Set when the check run is a workflow job.
  job?: { runId: number; workflowName: string; headBranch: string; steps: CiStep[] };
}

export interface CiApp {
  id: number;
  slug: string;
  name: string;
  owner: string;
}

export interface CheckSuite {
  id: number;
  headSha: string;
  headBranch: string;
  app: CiApp;
  conclusion: CheckConclusion;
  createdAt: string;
  updatedAt: string;
}

export interface CiState {
  suites: CheckSuite[];
  checkRuns: CheckRun[];
  // The heads CI has already run on, per workflow path, so a scan starts each once.
  ranOn: Set<string>;
  // The pull requests CI has seen, per workflow path: a later head of one is a push to it, not its opening.
  seenPulls: Set<string>;
}

const states = new WeakMap<Repo, CiState>();

export function ciState(repo: Repo): CiState {
  let state = states.get(repo);
  if (!state) {
    state = { suites: [], checkRuns: [], ranOn: new Set(), seenPulls: new Set() };
    states.set(repo, state);
  }
  return state;
}

// The GitHub Actions app, which owns the check suite of every workflow run.
export const GITHUB_ACTIONS_APP: CiApp = {
  id: 15368,
  slug: "github-actions",
  name: "GitHub Actions",
  owner: "github",
};
