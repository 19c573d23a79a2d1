import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startAnthropicFake, type AnthropicFake } from "../../../sandbox/anthropic-fake/server.ts";

let fake: AnthropicFake;

function client(): Anthropic {
  return new Anthropic({ apiKey: "sk-ant-test", baseURL: fake.url, maxRetries: 0 });
}

const tools: Anthropic.Tool[] = [
  {
    name: "read_file",
    description: "Read a file",
    input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

afterEach(async () => {
  await fake.close();
});

describe("anthropic fake: replies", () => {
  it("streams text and tool_use that the real SDK reassembles, with ping and chunked deltas", async () => {
    fake = await startAnthropicFake({
      script: [
        {
          content: [
            { type: "text", text: "I will read the entry point first." },
            { type: "tool_use", name: "read_file", input: { path: "src/index.ts" } },
          ],
        },
      ],
    });
    const deltas: string[] = [];
    const stream = client().messages.stream({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      tools,
      messages: [{ role: "user", content: "Fix the bug" }],
    });
    stream.on("text", (delta) => deltas.push(delta));
    const message = await stream.finalMessage();

    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("I will read the entry point first.");
    expect(message.stop_reason).toBe("tool_use");
    const toolUse = message.content[1];
    expect(toolUse?.type).toBe("tool_use");
    if (toolUse?.type !== "tool_use") throw new Error("expected tool_use");
    expect(toolUse.input).toEqual({ path: "src/index.ts" });
    expect(toolUse.id).toMatch(/^toolu_/);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(stream.request_id).toMatch(/^req_/);
  });

  it("sends the real SSE event order", async () => {
    fake = await startAnthropicFake({ script: [{ content: [{ type: "text", text: "Hello there" }] }] });
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-sonnet-4-5",
        max_tokens: 10,
        stream: true,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    const text = await response.text();
    const names = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);

    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("anthropic-ratelimit-requests-limit")).toBe("4000");
    expect(names[0]).toBe("message_start");
    expect(names).toContain("ping");
    expect(names.slice(-4)).toEqual([
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(names.filter((n) => n === "content_block_delta").length).toBeGreaterThan(1);
  });

  it("answers a non-streaming request with a Message and records it", async () => {
    fake = await startAnthropicFake({
      script: [
        (request) => ({ content: [{ type: "text", text: `seen ${request.headers["authorization"]}` }] }),
      ],
    });
    const message = await client().messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      messages: [{ role: "user", content: "hi" }],
    });

    expect(message.content).toEqual([{ type: "text", text: "seen Bearer sk-ant-test" }]);
    expect(message.stop_reason).toBe("end_turn");
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.stream).toBe(false);
    expect(fake.requests[0]?.status).toBe(200);
  });
});

describe("anthropic fake: faults", () => {
  it("answers 529 overloaded_error in Anthropic's envelope", async () => {
    fake = await startAnthropicFake({ script: [{ status: 529 }] });
    const error = await client()
      .messages.create({
        model: "claude-sonnet-4-5",
        max_tokens: 8,
        messages: [{ role: "user", content: "hi" }],
      })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Anthropic.APIError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(529);
    expect(apiError.type).toBe("overloaded_error");
    expect(apiError.requestID).toMatch(/^req_/);
  });

  it("answers 429 with retry-after and 500 with api_error", async () => {
    fake = await startAnthropicFake({
      script: [{ status: 429, headers: { "retry-after": "7" } }, { status: 500 }],
    });
    const first = (await client()
      .messages.create({ model: "m", max_tokens: 8, messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    const second = (await client()
      .messages.create({ model: "m", max_tokens: 8, messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;

    expect(first.status).toBe(429);
    expect(first.type).toBe("rate_limit_error");
    expect(first.headers?.get("retry-after")).toBe("7");
    expect(second.status).toBe(500);
    expect(second.type).toBe("api_error");
  });

  it("cuts a stream after n events: the SDK fails with the partial text received", async () => {
    fake = await startAnthropicFake({
      script: [
        { dropAfterEvents: 5, response: { content: [{ type: "text", text: "abcdefghijklmnopqrstuvwxyz" }] } },
      ],
    });
    const deltas: string[] = [];
    const stream = client().messages.stream({
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      messages: [{ role: "user", content: "hi" }],
    });
    stream.on("text", (delta) => deltas.push(delta));
    const error = await stream.finalMessage().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Anthropic.AnthropicError);
    expect(deltas.join("").length).toBeGreaterThan(0);
    expect(deltas.join("").length).toBeLessThan(26);
  });

  it("sends an SSE error event mid-stream", async () => {
    fake = await startAnthropicFake({
      script: [{ streamErrorAfterEvents: 2, error: { type: "overloaded_error", message: "Overloaded" } }],
    });
    const error = await client()
      .messages.stream({
        model: "claude-sonnet-4-5",
        max_tokens: 64,
        messages: [{ role: "user", content: "hi" }],
      })
      .finalMessage()
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe("overloaded_error");
  });
});

describe("anthropic fake: validation", () => {
  async function badRequest(body: Record<string, unknown>): Promise<InstanceType<typeof Anthropic.APIError>> {
    fake = await startAnthropicFake({ script: [{ content: [{ type: "text", text: "unused" }] }] });
    const error = await client()
      .messages.create(body as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    return error as InstanceType<typeof Anthropic.APIError>;
  }

  it("requires max_tokens", async () => {
    const error = await badRequest({ model: "m", messages: [{ role: "user", content: "hi" }] });
    expect(error.type).toBe("invalid_request_error");
    expect(error.apiMessage).toBe("max_tokens: Field required");
  });

  it("requires alternating roles", async () => {
    const error = await badRequest({
      model: "m",
      max_tokens: 8,
      messages: [
        { role: "user", content: "a" },
        { role: "user", content: "b" },
      ],
    });
    expect(error.apiMessage).toContain("roles must alternate");
  });

  it("requires every tool_use to be answered by a tool_result in the next user turn", async () => {
    const error = await badRequest({
      model: "m",
      max_tokens: 8,
      messages: [
        { role: "user", content: "a" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "read_file", input: {} }] },
        { role: "user", content: "no result here" },
      ],
    });
    expect(error.apiMessage).toContain("`tool_use` ids were found without `tool_result` blocks");
    expect(error.apiMessage).toContain("toolu_1");
  });

  it("refuses more than 4 cache_control breakpoints", async () => {
    const marked = { type: "text", text: "x", cache_control: { type: "ephemeral" } };
    const error = await badRequest({
      model: "m",
      max_tokens: 8,
      system: [marked, marked, marked],
      messages: [{ role: "user", content: [marked, marked] }],
    });
    expect(error.apiMessage).toBe("A maximum of 4 blocks with cache_control may be provided. Found 5.");
  });

  it("does not consume a script turn for a refused request, and reports an exhausted script", async () => {
    await badRequest({ model: "m", messages: [{ role: "user", content: "hi" }] });
    const ok = await client().messages.create({
      model: "m",
      max_tokens: 8,
      messages: [{ role: "user", content: "hi" }],
    });
    const exhausted = (await client()
      .messages.create({ model: "m", max_tokens: 8, messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;

    expect(ok.content).toEqual([{ type: "text", text: "unused" }]);
    expect(exhausted.apiMessage).toContain("script has no turn left");
  });

  it("answers 404 for a model it does not know and 401 without a key", async () => {
    fake = await startAnthropicFake({ models: ["claude-sonnet-4-5"] });
    const unknown = (await client()
      .messages.create({ model: "claude-nope", max_tokens: 8, messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    const noKey = await fetch(`${fake.url}/v1/messages`, { method: "POST", body: "{}" });

    expect(unknown.status).toBe(404);
    expect(unknown.type).toBe("not_found_error");
    expect(noKey.status).toBe(401);
  });
});

describe("anthropic fake: prompt cache accounting", () => {
  const big = "repository context line\n".repeat(400);

  function request(messages: Anthropic.MessageParam[]): Anthropic.MessageCreateParamsNonStreaming {
    return {
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      system: [{ type: "text", text: big, cache_control: { type: "ephemeral" } }],
      messages,
    };
  }

  it("writes the prefix up to a breakpoint, then reads it from the next request", async () => {
    fake = await startAnthropicFake({
      script: [{ content: [{ type: "text", text: "one" }] }, { content: [{ type: "text", text: "two" }] }],
    });
    const first = await client().messages.create(request([{ role: "user", content: "task" }]));
    const second = await client().messages.create(request([{ role: "user", content: "other task" }]));
    const systemTokens = Math.ceil(
      Buffer.byteLength(JSON.stringify(["system", { type: "text", text: big }])) / 4,
    );

    expect(first.usage.cache_creation_input_tokens).toBe(systemTokens);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(second.usage.cache_read_input_tokens).toBe(systemTokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect(second.usage.input_tokens).toBeGreaterThan(0);
    expect(fake.cacheReport().totals.cache_read_input_tokens).toBe(systemTokens);
  });

  it("does not cache a prefix below the minimum length, nor across models", async () => {
    const reply = { content: [{ type: "text" as const, text: "a" }] };
    fake = await startAnthropicFake({ script: [reply, reply, reply] });
    const small = await client().messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 8,
      system: [{ type: "text", text: "short", cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: "hi" }],
    });
    await client().messages.create(request([{ role: "user", content: "task" }]));
    const otherModel = await client().messages.create({
      ...request([{ role: "user", content: "task" }]),
      model: "claude-opus-4-5",
    });

    expect(small.usage.cache_creation_input_tokens).toBe(0);
    expect(small.usage.input_tokens).toBeGreaterThan(0);
    expect(otherModel.usage.cache_read_input_tokens).toBe(0);
    expect(otherModel.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it("expires entries after the TTL", async () => {
    let now = 0;
    fake = await startAnthropicFake({
      cache: { now: () => now },
      script: [{ content: [{ type: "text", text: "a" }] }, { content: [{ type: "text", text: "b" }] }],
    });
    await client().messages.create(request([{ role: "user", content: "task" }]));
    now += 5 * 60_000 + 1;
    const later = await client().messages.create(request([{ role: "user", content: "task" }]));

    expect(later.usage.cache_read_input_tokens).toBe(0);
    expect(later.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });
});
