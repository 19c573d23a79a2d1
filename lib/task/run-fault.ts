/**
 * An error nothing caught: thrown in an event handler or a promise nobody awaited (a socket's
 * callback, a stream's `error`). Node's default ends the process with exit 1, and then no task
 * saves its work, says why it failed or leaves `locus:in-progress`. The Action catches such an
 * error for the whole run instead: it stops the run through its signal, with a `RunFault` as the
 * reason, so each task still running ends through its failure path (checkpoint, failure comment,
 * `locus:failed`), and the step fails at the end.
 */

export class RunFault extends Error {
  constructor(cause: unknown) {
    super(`Locus stopped on an unexpected error: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = "RunFault";
  }
}

/** The fault that stopped the run, if that is why its signal was aborted. */
export function runFaultOf(signal: AbortSignal): RunFault | undefined {
  return signal.aborted && signal.reason instanceof RunFault ? signal.reason : undefined;
}

/** What a fault catcher listens on: `process`, in the Action. */
export interface FaultSource {
  on(event: "uncaughtException" | "unhandledRejection", listener: (error: unknown) => void): unknown;
  off(event: "uncaughtException" | "unhandledRejection", listener: (error: unknown) => void): unknown;
}

export interface FaultCatcher {
  /** The first error caught, if any. */
  readonly caught: () => RunFault | undefined;
  /** Stops listening (the run is over). */
  stop(): void;
}

/**
 * Faults told before the rest are only counted. Telling a fault writes the log, and when the log
 * itself is what fails (the runner's end of stdout closed: EPIPE), each telling is a new fault: an
 * Action left running without its runner would tell of it forever, at full CPU.
 */
export const FAULTS_TOLD = 20;

/** Listens for uncaught errors and rejections; the first one aborts `run` with its RunFault. */
export function catchRunFaults(
  source: FaultSource,
  run: AbortController,
  onFault: (fault: RunFault) => void,
): FaultCatcher {
  let first: RunFault | undefined;
  let count = 0;
  const listener = (error: unknown) => {
    const fault = new RunFault(error);
    first ??= fault;
    if (!run.signal.aborted) run.abort(fault);
    count += 1;
    if (count <= FAULTS_TOLD) onFault(fault);
  };
  source.on("uncaughtException", listener);
  source.on("unhandledRejection", listener);
  return {
    caught: () => first,
    stop() {
      source.off("uncaughtException", listener);
      source.off("unhandledRejection", listener);
    },
  };
}
