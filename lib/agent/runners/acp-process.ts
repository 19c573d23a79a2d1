/**
 * The ACP agent's process: started from its (sandboxed) command line with
 * JSON-RPC over its stdio, every line it writes handed to the channel, and a
 * line that is not a JSON-RPC message treated as a protocol violation that
 * stops the run. Resolves with how the process ended, or the error that kept
 * it from starting; the channel is closed either way.
 */
import type { StopReason } from "../runner.ts";
import type { WrappedCommand } from "../../sandbox/sandbox.ts";
import type { AcpChannel } from "./acp-channel.ts";
import { runJsonLines, type JsonLinesOutcome } from "./json-lines-process.ts";

export function startAcpProcess(
  command: WrappedCommand,
  channel: AcpChannel,
  signal: AbortSignal,
  stop: (reason: StopReason, message: string) => void,
): Promise<JsonLinesOutcome | Error> {
  return runJsonLines({
    executable: command.file,
    args: command.args,
    cwd: command.cwd,
    env: command.env,
    stdin: (stdin) => channel.attach(stdin),
    signal,
    onValue: (value) => {
      if (!channel.receive(value))
        stop(
          "failed",
          `the agent broke the protocol: it wrote ${JSON.stringify(value).slice(0, 200)}, not a JSON-RPC message`,
        );
    },
    onInvalid: (text) =>
      stop("failed", `the agent broke the protocol: it wrote a line that is not JSON: ${text.slice(0, 200)}`),
  })
    .then(
      (outcome) => outcome,
      (error: unknown) =>
        new Error(`the agent could not start: ${error instanceof Error ? error.message : String(error)}`),
    )
    .finally(() => channel.close());
}
