/**
 * The one switch for tests that need bubblewrap. Where it works they run;
 * where it does not (a newcomer's machine without bubblewrap) they are
 * reported as skipped, with the reason in their name; under `CI=true` (where
 * .ci/run installs it) they always run, so a missing or refused sandbox
 * fails them instead of hiding them.
 */
import { describe } from "vitest";
import { probeBubblewrap } from "../lib/sandbox/probe.ts";

export const sandboxProbe = probeBubblewrap(process.env["PATH"]);

const skip = !sandboxProbe.ok && process.env["CI"] !== "true";
const why = sandboxProbe.ok ? "" : ` [skipped: needs bubblewrap: ${sandboxProbe.reason}]`;

function named(name: string): string {
  return skip ? `${name}${why}` : name;
}

/** `describe` for a group of tests that need a bubblewrap sandbox. */
export function describeWithSandbox(name: string, body: () => void): void {
  describe.skipIf(skip)(named(name), body);
}
