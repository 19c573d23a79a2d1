/**
 * The workflow a repository that uses Locus holds, taken from the README's
 * install instructions rather than written again here: the sandbox and the
 * tests seed it, so a README that stops matching what the app dispatches
 * fails them the way it would fail a user who followed it.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CALLER_WORKFLOW_PATH = ".github/workflows/locus.yml";

const README = fileURLToPath(new URL("../../README.md", import.meta.url));

/** The README's ```yaml block that calls the reusable workflow. */
export function readmeCallerWorkflow(readme: string = readFileSync(README, "utf8")): string {
  for (const match of readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)) {
    const block = match[1] ?? "";
    if (block.includes("uses: locus-dev/locus/.github/workflows/locus.yml")) return block;
  }
  throw new Error("the README has no caller workflow block (a yaml block using the reusable workflow)");
}

/** Files to seed in a repository so the app can dispatch its work there. */
export function callerWorkflowFiles(): Record<string, string> {
  return { [CALLER_WORKFLOW_PATH]: readmeCallerWorkflow() };
}

/**
 * The reusable workflow the caller's job uses, as the simulator's
 * `calledWorkflows` takes it: its `concurrency` groups the caller's runs.
 */
export function calledWorkflows(): Record<string, string> {
  const reusable = readFileSync(
    fileURLToPath(new URL("../../.github/workflows/locus.yml", import.meta.url)),
    "utf8",
  );
  return { "locus-dev/locus/.github/workflows/locus.yml": reusable };
}
