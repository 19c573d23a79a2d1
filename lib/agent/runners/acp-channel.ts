/**
 * The ACP SDK's message stream over an agent process: stdout lines parsed by the process helper
 * come in as messages, messages go out as JSON lines on its stdin. A line that is not a JSON
 * object is the agent breaking the protocol; the caller decides to stop.
 */
import type { Writable } from "node:stream";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";

export interface AcpChannel {
  readonly stream: Stream;
  /** Hands over the process's stdin once it exists. */
  attach(stdin: Writable): void;
  /** A parsed stdout line; false when it is not a JSON-RPC message object. */
  receive(value: unknown): boolean;
  /** The process is gone: the SDK sees the end of the stream and fails what is pending. */
  close(): void;
}

export function createAcpChannel(): AcpChannel {
  let incoming: ReadableStreamDefaultController<AnyMessage> | undefined;
  let stdin: Writable | undefined;
  let closed = false;
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      incoming = controller;
    },
    // The SDK cancels its side when the connection ends first; what comes after is dropped.
    cancel() {
      closed = true;
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write(message) {
      if (stdin === undefined || stdin.destroyed || !stdin.writable) return;
      stdin.write(`${JSON.stringify(message)}\n`);
    },
  });
  return {
    stream: { readable, writable },
    attach(input) {
      stdin = input;
    },
    receive(value) {
      if (closed) return true;
      if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
      incoming?.enqueue(value as AnyMessage);
      return true;
    },
    close() {
      if (closed) return;
      closed = true;
      incoming?.close();
      stdin?.end();
    },
  };
}
