/**
 * The bundled Action for tests that run it as a child process. Building it
 * takes an esbuild pass over every source file, so `test/global-setup.ts`
 * builds it once per `vitest run` from the current sources (never `dist/`)
 * and provides its path; a test file started without that setup (an editor's
 * single-file run with another config, or a benchmark outside vitest) builds its own into `dir`.
 */
import { join } from "node:path";
import { inject } from "vitest";
import { buildAction } from "../scripts/build.ts";

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

/** The shared bundle, else one built now into `dir`. */
export async function actionBundle(dir: string): Promise<string> {
  const shared = sharedActionBundle();
  if (shared) return shared;
  const bundle = join(dir, "action.js");
  await buildAction(bundle);
  return bundle;
}
