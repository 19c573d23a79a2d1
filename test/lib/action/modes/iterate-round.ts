/**
 * One iterate round in a pull request world (pull-request-world.ts), as the
 * app starts it: a writer's `/locus iterate` comment, the run dispatched, then
 * the mode run in process with that run's context. Answers what a test reads
 * of it: the mode's result, the gateway calls it made, the agent's first
 * request and the log's error lines.
 */
import { runIterateMode } from "../../../../lib/action/modes/iterate.ts";
import type { ModeResult } from "../../../../lib/task/task-report.ts";
import type { FakeCall } from "../../../fakes/github-fake.ts";
import type { PullRequestWorld, RoundOptions } from "./pull-request-world.ts";

export interface IterateRound {
  readonly result: ModeResult;
  /** The gateway calls the mode made. */
  readonly calls: readonly FakeCall[];
  /** The agent's first request of the round, as JSON ("" when the model was not asked). */
  readonly task: string;
  readonly firstRequest: number;
  /** Lines the round logged as errors. */
  readonly errors: readonly string[];
}

export async function iterateRound(
  p: PullRequestWorld,
  pr: number,
  options: RoundOptions = {},
  afterTrigger: () => Promise<void> = () => Promise.resolve(),
): Promise<IterateRound> {
  await p.catchUp();
  p.w.github.seedComment(pr, `/locus iterate ${options.command ?? ""}`.trim(), "rev");
  const ctx = await p.dispatch("iterate", pr, options);
  await afterTrigger();
  const firstRequest = p.w.anthropic.requests.length;
  const callsStart = p.w.github.calls.length;
  const logStart = p.w.log.lines.length;
  const result = await runIterateMode(ctx, pr);
  const request = p.w.anthropic.requests[firstRequest];
  return {
    result,
    calls: p.w.github.calls.slice(callsStart),
    task: request ? JSON.stringify(request.body) : "",
    firstRequest,
    errors: p.w.log.lines.slice(logStart).filter((line) => line.startsWith("error:")),
  };
}

/** A writer's line comment on greet.js line 2, in a review of its own. */
export function lineComment(p: PullRequestWorld, pr: number, body: string): void {
  p.w.github.seedReview(
    pr,
    { event: "COMMENT", body: "", comments: [{ path: "src/greet.js", line: 2, body }] },
    "rev",
  );
}
