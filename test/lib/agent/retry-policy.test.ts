import { AnthropicError, APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { classifyFailure, retryDelaySeconds } from "../../../lib/agent/retry-policy.ts";

function apiError(status: number, type: string, headers: Record<string, string> = {}): APIError {
  return APIError.generate(
    status,
    { type: "error", error: { type, message: type } },
    undefined,
    new Headers(headers),
  );
}

describe("classifyFailure", () => {
  it("retries rate limits, overload, server errors and network failures", () => {
    expect(classifyFailure(apiError(429, "rate_limit_error"))).toMatchObject({
      kind: "rate_limited",
      retryable: true,
    });
    expect(classifyFailure(apiError(529, "overloaded_error"))).toMatchObject({
      kind: "overloaded",
      retryable: true,
    });
    expect(classifyFailure(apiError(503, "api_error"))).toMatchObject({ kind: "server", retryable: true });
    expect(classifyFailure(new APIConnectionError({ message: "ECONNRESET" }))).toMatchObject({
      kind: "network",
      retryable: true,
    });
    expect(classifyFailure(new AnthropicError("terminated"))).toMatchObject({
      kind: "stream_cut",
      retryable: true,
    });
  });

  it("does not retry client errors, aborts or bugs", () => {
    expect(classifyFailure(apiError(400, "invalid_request_error"))).toMatchObject({
      kind: "fatal",
      retryable: false,
    });
    expect(classifyFailure(apiError(401, "authentication_error")).retryable).toBe(false);
    expect(classifyFailure(new APIUserAbortError())).toMatchObject({ kind: "aborted", retryable: false });
    expect(classifyFailure(new TypeError("x is undefined")).retryable).toBe(false);
  });

  it("reads retry-after, capped at a minute", () => {
    expect(
      classifyFailure(apiError(429, "rate_limit_error", { "retry-after": "12" })).retryAfterSeconds,
    ).toBe(12);
    expect(
      classifyFailure(apiError(429, "rate_limit_error", { "retry-after": "3600" })).retryAfterSeconds,
    ).toBe(60);
  });
});

describe("retryDelaySeconds", () => {
  const overloaded = { kind: "overloaded", retryable: true, message: "" } as const;

  it("backs off 1-2-4-8-16 s and stops after 5 retries", () => {
    expect([1, 2, 3, 4, 5, 6].map((retry) => retryDelaySeconds(retry, overloaded))).toEqual([
      1,
      2,
      4,
      8,
      16,
      undefined,
    ]);
  });

  it("waits at least as long as retry-after", () => {
    expect(retryDelaySeconds(1, { ...overloaded, retryAfterSeconds: 5 })).toBe(5);
    expect(retryDelaySeconds(5, { ...overloaded, retryAfterSeconds: 5 })).toBe(16);
  });
});
