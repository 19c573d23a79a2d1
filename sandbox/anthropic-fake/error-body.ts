/** Anthropic's error envelope, with the type and wording the API uses for each status. */

const DEFAULTS: Readonly<Record<number, readonly [string, string]>> = {
  400: ["invalid_request_error", "Invalid request"],
  401: ["authentication_error", "invalid x-api-key"],
  403: ["permission_error", "Your API key does not have permission to use the specified resource."],
  404: ["not_found_error", "Not found"],
  413: ["request_too_large", "Request exceeds the maximum allowed number of bytes."],
  429: [
    "rate_limit_error",
    "This request would exceed the rate limit for your organization of 50 requests per minute. Please retry after the time in the retry-after header.",
  ],
  500: ["api_error", "Internal server error"],
  529: ["overloaded_error", "Overloaded"],
};

export function errorType(status: number): string {
  return DEFAULTS[status]?.[0] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

export function errorBody(status: number, requestId: string, message?: string): Record<string, unknown> {
  return {
    type: "error",
    error: { type: errorType(status), message: message ?? DEFAULTS[status]?.[1] ?? "Error" },
    request_id: requestId,
  };
}
