/** What a benchmark reports: figures, each beside a baseline measured in the same run. */

/** A figure over repeated runs: the median, with the spread that shows how much to trust it. */
export interface Sample {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
}

export interface Goal {
  /** The pass condition as the issue states it, e.g. "≤ 2× rg -n". */
  readonly text: string;
  readonly met: boolean;
  /** How far from the limit, e.g. "2.7× the limit" — only for misses and near misses. */
  readonly margin?: string;
}

export interface Figure {
  readonly benchmark: string;
  readonly name: string;
  readonly unit: string;
  readonly value: Sample;
  readonly baseline?: { readonly name: string; readonly value: Sample };
  /** value ÷ baseline, both medians. */
  readonly ratio?: number;
  readonly goals: readonly Goal[];
  readonly note?: string;
}

export interface Skipped {
  readonly benchmark: string;
  readonly skipped: string;
}

export interface BenchContext {
  /** Repeats for each measured figure (`BENCH_REPEATS`, default per benchmark). */
  readonly repeats: (fallback: number) => number;
  readonly log: (line: string) => void;
}

export interface Benchmark {
  readonly name: string;
  readonly description: string;
  run(context: BenchContext): Promise<readonly (Figure | Skipped)[]>;
}
