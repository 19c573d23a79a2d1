/**
 * The one switch for tests that need bubblewrap. Where it works they run;
 * where it does not (a newcomer's machine without bubblewrap) they are
 * reported as skipped, with the reason in their name; under `CI=true` (where
 * .ci/run installs it) they always run, so a missing or refused sandbox
 * fails them instead of hiding them.
 *
 * Tests whose subject is the sandbox use `describeWithSandbox`. Tests whose
 * subject is a mode's behaviour run everywhere: their world sets
 * `sandbox.mode` to what the machine supports (`worldSandboxMode`), as
 * `npm run demo` does for its scripted agent.
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

/**
 * The `sandbox.mode` of a world whose subject is not the sandbox: `required` (Locus's default)
 * wherever bubblewrap works and always under `CI=true`, `off` on a machine without it.
 */
export const worldSandboxMode: "required" | "off" = skip ? "off" : "required";

/**
 * A Locus config file's text as this machine can run it: unchanged where the world's mode is
 * `required`; otherwise with `sandbox.mode: off`, replacing any mode the file names.
 */
export function configForThisMachine(text: string): string {
  if (worldSandboxMode === "required") return text;
  const lines = (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
  const header = lines.findIndex((line) => /^sandbox:\s*$/.test(line));
  if (header < 0) return [...lines, "sandbox:", "  mode: off", ""].join("\n");
  const after = lines.slice(header + 1);
  const length = after.findIndex((line) => /^\S/.test(line));
  const section = length < 0 ? after : after.slice(0, length);
  const mode = section.findIndex((line) => /^ {2}mode:/.test(line));
  if (mode >= 0) lines[header + 1 + mode] = "  mode: off";
  else lines.splice(header + 1, 0, "  mode: off");
  return [...lines, ""].join("\n");
}

/**
 * A test repository's files with every Locus config file (`.github/*.yml` with a top-level
 * `version:` line, after any comments) as `configForThisMachine` makes it, and a `.github/locus.yml` where there is
 * none and the world's mode is `off`.
 */
export function filesForThisMachine(files: Record<string, string>): Record<string, string> {
  if (worldSandboxMode === "required") return files;
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries(files)) {
    out[path] =
      /^\.github\/[^/]+\.ya?ml$/.test(path) && /^version:/m.test(text) ? configForThisMachine(text) : text;
  }
  out[".github/locus.yml"] ??= configForThisMachine("version: 3\n");
  return out;
}
