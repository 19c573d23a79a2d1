import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { catchRunFaults, FAULTS_TOLD, RunFault, runFaultOf } from "../../../lib/task/run-fault.ts";

describe("catchRunFaults", () => {
  it("stops the run with the first uncaught error or rejection as a RunFault, and stops listening", () => {
    const source = new EventEmitter();
    const run = new AbortController();
    const told: string[] = [];
    const faults = catchRunFaults(source, run, (fault) => told.push(fault.message));

    source.emit("unhandledRejection", new Error("ERR_SOCKET_BAD_PORT"));
    source.emit("uncaughtException", "a thrown string");

    expect(run.signal.aborted).toBe(true);
    expect(runFaultOf(run.signal)?.message).toBe("Locus stopped on an unexpected error: ERR_SOCKET_BAD_PORT");
    expect(faults.caught()).toBe(run.signal.reason);
    expect(told).toEqual([
      "Locus stopped on an unexpected error: ERR_SOCKET_BAD_PORT",
      "Locus stopped on an unexpected error: a thrown string",
    ]);
    faults.stop();
    expect(source.listenerCount("uncaughtException") + source.listenerCount("unhandledRejection")).toBe(0);
  });

  it("tells only the first faults, so a log that fails to write cannot tell of itself forever", () => {
    const source = new EventEmitter();
    const run = new AbortController();
    let told = 0;
    // Each telling fails the way a write to a closed stdout does: with another uncaught error.
    catchRunFaults(source, run, () => {
      told += 1;
      source.emit("uncaughtException", new Error("write EPIPE"));
    });
    source.emit("uncaughtException", new Error("the first"));
    expect(told).toBe(FAULTS_TOLD);
    expect(runFaultOf(run.signal)?.message).toBe("Locus stopped on an unexpected error: the first");
  });

  it("tells a cancel apart from a fault", () => {
    const cancelled = new AbortController();
    cancelled.abort(new Error("cancelled (SIGTERM)"));
    expect(runFaultOf(cancelled.signal)).toBeUndefined();
    expect(runFaultOf(new AbortController().signal)).toBeUndefined();
    const faulted = new AbortController();
    faulted.abort(new RunFault(new Error("x")));
    expect(runFaultOf(faulted.signal)).toBeInstanceOf(RunFault);
  });
});
