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
