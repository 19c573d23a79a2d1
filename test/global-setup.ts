/**
 * Runs once per `vitest run`, before any test file of the end-to-end project:
 * bundles the Action from the current sources into a temp directory and
 * provides its path (`test/action-bundle.ts`), so the files that run the
 * Action as a child process share one build instead of each making its own.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildAction } from "../scripts/build.ts";
import "./action-bundle.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "locus-action-bundle-"));
  const bundle = join(dir, "action.js");
  await buildAction(bundle);
  project.provide("actionBundle", bundle);
  return () => rm(dir, { recursive: true, force: true });
}
