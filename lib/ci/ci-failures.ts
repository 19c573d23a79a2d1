/**
 * Reads what failed in CI for a fix-ci run, bounded: at most 5 failed checks,
 * each with its failed steps, the tail of its job log (workflow jobs only),
 * its output and up to 10 annotations.
 */
import type { CiReads, CiSource } from "../github/index.ts";
import { failedStepTail, type LogTail } from "./log-tail.ts";

export interface CiFailure {
  readonly name: string;
  readonly conclusion: string;
  readonly failedSteps: readonly string[];
  readonly output: string;
  readonly annotations: readonly string[];
  readonly log?: LogTail;
}

export interface CiFailures {
  readonly checks: readonly CiFailure[];
  /** Failed checks left out beyond the first few. */
  readonly omitted: number;
}

const MAX_CHECKS = 5;
const MAX_ANNOTATIONS = 10;
const MAX_OUTPUT_CHARS = 2000;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)} … (${text.length - max} more characters)` : text;
}

export async function readCiFailures(ci: CiReads, source: CiSource): Promise<CiFailures> {
  const failed = await ci.failedChecks(source);
  const checks = await Promise.all(
    failed.slice(0, MAX_CHECKS).map(async (check): Promise<CiFailure> => {
      const [annotations, log] = await Promise.all([
        ci.annotations(check.id, MAX_ANNOTATIONS),
        check.isJob ? ci.jobLog(check.id) : Promise.resolve(null),
      ]);
      const output = [check.output.title, check.output.summary, check.output.text]
        .filter((part): part is string => Boolean(part))
        .join("\n\n");
      return {
        name: check.name,
        conclusion: check.conclusion ?? "failure",
        failedSteps: check.failedSteps,
        output: clip(output, MAX_OUTPUT_CHARS),
        annotations: annotations.map(
          (a) =>
            `${a.path}:${a.startLine} (${a.level})${a.title ? ` ${a.title}:` : ""} ${clip(a.message, 300)}`,
        ),
        ...(log === null ? {} : { log: failedStepTail(log) }),
      };
    }),
  );
  return { checks, omitted: Math.max(0, failed.length - MAX_CHECKS) };
}
