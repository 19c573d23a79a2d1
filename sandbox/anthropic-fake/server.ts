/**
 * A local stand-in for the Anthropic Messages API: a real `node:http` server on 127.0.0.1 that
 * the official SDK reaches through `baseURL` / `ANTHROPIC_BASE_URL`. It answers `POST /v1/messages`
 * from a script (one turn per request), validates requests like the API, streams SSE in the real
 * event sequence, injects faults (HTTP errors, cut streams, mid-stream error events), records every
 * request and bills prompt-cache usage under Anthropic's rules (see prompt-cache.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorBody } from "./error-body.ts";
import { buildMessage, formatSse, messageEvents, messageJson, type SseEvent } from "./message-events.ts";
import { createPromptCache, type PromptCacheOptions } from "./prompt-cache.ts";
import type {
  CacheReport,
  CacheUsage,
  FakeReply,
  FakeResponse,
  FakeTurn,
  HoldFault,
  HttpFault,
  RecordedRequest,
} from "./types.ts";
import { validateRequest } from "./validate-request.ts";

export interface AnthropicFakeOptions {
  readonly script?: readonly FakeTurn[];
  readonly cache?: PromptCacheOptions;
  /** Model ids the fake knows; any other is answered 404 like the API does. Every id when absent. */
  readonly models?: readonly string[];
}

export interface AnthropicFake {
  /** Base URL for the SDK's `baseURL` (no trailing slash, no `/v1`). */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  cacheReport(): CacheReport;
  /** Replaces the turns not yet played. */
  setScript(turns: readonly FakeTurn[]): void;
  close(): Promise<void>;
}

const DEFAULT_DROPPED: FakeResponse = {
  content: [{ type: "text", text: "Let me look at the repository layout before changing anything." }],
};

function isHttpFault(reply: FakeReply): reply is HttpFault {
  return "status" in reply;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

function headerMap(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => res.write(chunk, (error) => (error ? reject(error) : resolve())));
}

export async function startAnthropicFake(options: AnthropicFakeOptions = {}): Promise<AnthropicFake> {
  let script: FakeTurn[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const cache = createPromptCache(options.cache);
  let counter = 0;
  let toolUseCounter = 0;

  function nextId(prefix: string): string {
    counter += 1;
    return `${prefix}_01fake${String(counter).padStart(18, "0")}`;
  }

  function baseHeaders(requestId: string): Record<string, string> {
    const reset = new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    return {
      "request-id": requestId,
      "anthropic-organization-id": "00000000-0000-4000-8000-00000000fa4e",
      "anthropic-ratelimit-requests-limit": "4000",
      "anthropic-ratelimit-requests-remaining": String(Math.max(0, 4000 - requests.length)),
      "anthropic-ratelimit-requests-reset": reset,
      "anthropic-ratelimit-input-tokens-limit": "2000000",
      "anthropic-ratelimit-input-tokens-remaining": "2000000",
      "anthropic-ratelimit-input-tokens-reset": reset,
      "anthropic-ratelimit-output-tokens-limit": "400000",
      "anthropic-ratelimit-output-tokens-remaining": "400000",
      "anthropic-ratelimit-output-tokens-reset": reset,
      "anthropic-ratelimit-tokens-limit": "2400000",
      "anthropic-ratelimit-tokens-remaining": "2400000",
      "anthropic-ratelimit-tokens-reset": reset,
    };
  }

  function sendError(
    res: ServerResponse,
    record: RecordedRequest,
    requestId: string,
    fault: HttpFault,
  ): void {
    record.status = fault.status;
    const headers: Record<string, string> = {
      ...baseHeaders(requestId),
      "content-type": "application/json",
      ...(fault.status === 429 ? { "retry-after": "1" } : {}),
      ...(fault.status === 529 || fault.status >= 500 ? { "x-should-retry": "true" } : {}),
      ...fault.headers,
    };
    res.writeHead(fault.status, headers);
    res.end(JSON.stringify(fault.body ?? errorBody(fault.status, requestId)));
  }

  async function hold(res: ServerResponse, reply: HoldFault): Promise<void> {
    reply.onHold?.();
    await new Promise((resolve) => res.once("close", resolve));
  }

  async function streamEvents(res: ServerResponse, events: readonly SseEvent[]): Promise<void> {
    for (const event of events) await write(res, formatSse(event));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw === "" ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const headers = headerMap(req);
    const stream =
      typeof body === "object" && body !== null && (body as { stream?: unknown }).stream === true;
    const record: RecordedRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers,
      body,
      stream,
      status: 0,
    };
    requests.push(record);
    const requestId = nextId("req");
    const fail = (status: number, message?: string) =>
      sendError(res, record, requestId, { status, body: errorBody(status, requestId, message) });

    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "POST" || path !== "/v1/messages")
      return fail(404, `Not found: ${req.method} ${path}`);
    if (!headers["x-api-key"] && !headers["authorization"]) return fail(401, "x-api-key header is required");
    if (!headers["anthropic-version"]) return fail(400, "anthropic-version: header is required");
    if (body === undefined) {
      return fail(
        400,
        "There was an error parsing the body of your request. Please make sure it is valid JSON.",
      );
    }
    const problem = validateRequest(body);
    if (problem) return fail(400, problem);
    const request = body as Record<string, unknown>;
    const model = String(request["model"]);
    if (options.models && !options.models.includes(model)) return fail(404, `model: ${model}`);

    const turn = script.shift();
    if (turn === undefined) {
      return fail(400, `anthropic-fake: the script has no turn left for request ${requests.length}`);
    }
    const reply = typeof turn === "function" ? turn(record) : turn;
    if (isHttpFault(reply)) return sendError(res, record, requestId, reply);

    const usage: CacheUsage = cache.account(request);
    const response = "content" in reply ? reply : (reply.response ?? DEFAULT_DROPPED);
    const message = buildMessage(response, {
      message: nextId("msg"),
      toolUse: () => {
        toolUseCounter += 1;
        return `toolu_01fake${String(toolUseCounter).padStart(14, "0")}`;
      },
    });
    record.status = 200;
    record.usage = { ...usage, output_tokens: message.outputTokens };

    if ("holdAfterEvents" in reply && !stream) return hold(res, reply);
    if (!stream) {
      if ("dropAfterEvents" in reply || "streamErrorAfterEvents" in reply) {
        res.destroy();
        return;
      }
      res.writeHead(200, { ...baseHeaders(requestId), "content-type": "application/json" });
      res.end(JSON.stringify(messageJson(message, model, usage)));
      return;
    }

    res.writeHead(200, {
      ...baseHeaders(requestId),
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
    });
    const events = messageEvents(message, model, usage);
    if ("holdAfterEvents" in reply) {
      await streamEvents(res, events.slice(0, reply.holdAfterEvents));
      return hold(res, reply);
    }
    if ("dropAfterEvents" in reply) {
      await streamEvents(res, events.slice(0, reply.dropAfterEvents));
      res.destroy();
      return;
    }
    if ("streamErrorAfterEvents" in reply) {
      await streamEvents(res, events.slice(0, reply.streamErrorAfterEvents));
      await write(res, formatSse({ event: "error", data: { type: "error", error: reply.error } }));
      res.end();
      return;
    }
    await streamEvents(res, events);
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  function cacheReport(): CacheReport {
    const turns = requests.flatMap((r) => (r.usage ? [r.usage] : []));
    const sum = (key: keyof (typeof turns)[number]) => turns.reduce((total, t) => total + t[key], 0);
    return {
      turns,
      totals: {
        input_tokens: sum("input_tokens"),
        cache_creation_input_tokens: sum("cache_creation_input_tokens"),
        cache_read_input_tokens: sum("cache_read_input_tokens"),
        output_tokens: sum("output_tokens"),
      },
    };
  }

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    cacheReport,
    setScript(turns) {
      script = [...turns];
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
