/**
 * The bundled Action for tests that run it as a child process. Building it
 * takes an esbuild pass over every source file, so `test/global-setup.ts`
 * takes the one built from the current sources (never `dist/`) once per
 * `vitest run` and provides its path; a test file started without that setup
 * (an editor's single-file run with another config, or a benchmark outside
 * vitest) asks the same cache itself.
 */
import { inject } from "vitest";
import { cachedActionBundle } from "../scripts/action-bundle-cache.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Path of the Action bundled once for this run by `test/global-setup.ts`. */
    actionBundle?: string;
  }
}

/** The bundle built for this run, or undefined when the global setup did not run. */
export function sharedActionBundle(): string | undefined {
  // The benchmarks reuse the test harnesses outside vitest, where nothing is provided.
  if (process.env["VITEST"] === undefined) return undefined;
  return inject("actionBundle");
}

/** The shared bundle, else the one built for these sources. */
export async function actionBundle(): Promise<string> {
  return sharedActionBundle() ?? (await cachedActionBundle());
}
