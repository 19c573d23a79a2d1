// What the CI reads give fix-ci: plain data and the port, no implementation, so the
// gateway's types (types.ts) can name them without importing the reads themselves.

export interface CiCheck {
  readonly id: number;
  readonly name: string;
  readonly conclusion: string | null;
  /** Workflow jobs are check runs of the GitHub Actions app: their id is the job's id. */
  readonly isJob: boolean;
  readonly output: {
    readonly title: string | null;
    readonly summary: string | null;
    readonly text: string | null;
  };
  /** The failed steps of a workflow job (empty for other check runs). */
  readonly failedSteps: readonly string[];
}

export interface CiAnnotationRead {
  readonly path: string;
  readonly startLine: number;
  readonly level: string;
  readonly title: string | null;
  readonly message: string;
}

export type CiSource =
  { readonly kind: "run" | "suite"; readonly id: number } | { readonly kind: "commit"; readonly sha: string };

export interface CiReads {
  /** The check runs (or jobs) of the source that ended badly. */
  failedChecks(source: CiSource): Promise<CiCheck[]>;
  annotations(checkRunId: number, limit: number): Promise<CiAnnotationRead[]>;
  /** A job's whole log; null when GitHub no longer has it. */
  jobLog(jobId: number): Promise<string | null>;
  /** The commit a workflow run ran on, for checking it is still the PR's head, and when it last changed (its end, once completed). */
  runHead(runId: number): Promise<{ sha: string; url: string; updatedAt: string } | null>;
  /** When a check suite last changed (its end, once completed); null when GitHub no longer has it. */
  suiteUpdatedAt(suiteId: number): Promise<string | null>;
}
