/**
 * How a CLI's exit reads in an error, shared by every runner that starts a
 * process.
 */
import type { JsonLinesOutcome } from "./json-lines-process.ts";

/** Exit status as a sentence, with the end of stderr: the error of a CLI that failed without saying why. */
export function exitError(command: string, outcome: JsonLinesOutcome): string {
  const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
  return outcome.stderr === "" ? `${command} ${how}` : `${command} ${how}: ${outcome.stderr}`;
}
