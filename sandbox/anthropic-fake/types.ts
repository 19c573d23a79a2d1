/**
 * Shapes of the Anthropic Messages API stand-in: the script that drives it, the requests it
 * records and its prompt-cache report. Request bodies stay `unknown`-typed JSON on purpose: the
 * fake validates what a client sent rather than trusting a type.
 */

export type FakeStopReason =
  "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "pause_turn" | "refusal";

export type FakeBlock =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "tool_use";
      readonly name: string;
      readonly input: Record<string, unknown>;
      /** Generated (`toolu_…`) when absent. */
      readonly id?: string;
    };

/** What the model answers: its content blocks and why it stopped (`tool_use` when it called a tool). */
export interface FakeResponse {
  readonly content: readonly FakeBlock[];
  readonly stopReason?: FakeStopReason;
}

/** An HTTP error answered instead of a message, e.g. `{ status: 529 }` (body defaults to Anthropic's shape). */
export interface HttpFault {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Streams the first `dropAfterEvents` SSE events of `response` (default: a short text) and cuts the connection. */
export interface DropFault {
  readonly dropAfterEvents: number;
  readonly response?: FakeResponse;
}

/** Streams the first `afterEvents` events, then an SSE `error` event, as the API does when it overloads mid-stream. */
export interface StreamErrorFault {
  readonly streamErrorAfterEvents: number;
  readonly error: { readonly type: string; readonly message: string };
  readonly response?: FakeResponse;
}

/**
 * Streams the first `holdAfterEvents` events of `response`, tells `onHold`, and sends nothing more
 * until the client goes away: a model stalled mid-answer, for tests that stop a run at that point.
 */
export interface HoldFault {
  readonly holdAfterEvents: number;
  readonly response?: FakeResponse;
  readonly onHold?: () => void;
}

export type FakeFault = HttpFault | DropFault | StreamErrorFault | HoldFault;

export type FakeReply = FakeResponse | FakeFault;

/** One scripted turn: a fixed reply, or a function of the request (for replies that depend on it). */
export type FakeTurn = FakeReply | ((request: RecordedRequest) => FakeReply);

export interface CacheUsage {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (`undefined` when it was not JSON). */
  readonly body: unknown;
  readonly stream: boolean;
  /** Status answered; 200 for a stream even if it was cut later. */
  status: number;
  /** Usage billed for an answered message; absent for errors. */
  usage?: CacheUsage & { readonly output_tokens: number };
}

export interface CacheReport {
  /** One entry per request that produced a message, in order. */
  readonly turns: readonly (CacheUsage & { readonly output_tokens: number })[];
  readonly totals: CacheUsage & { readonly output_tokens: number };
}
