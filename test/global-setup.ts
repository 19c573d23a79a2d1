/**
 * Runs once per `vitest run`, before any test file of the end-to-end project:
 * takes the Action bundled from the current sources (scripts/action-bundle-cache.ts,
 * which builds it when the sources changed) and provides its path
 * (`test/action-bundle.ts`), so the files that run the Action as a child
 * process share one build instead of each making its own.
 */
import type { TestProject } from "vitest/node";
import { cachedActionBundle } from "../scripts/action-bundle-cache.ts";
import "./action-bundle.ts";

export default async function setup(project: TestProject): Promise<void> {
  project.provide("actionBundle", await cachedActionBundle());
}
