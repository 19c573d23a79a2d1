// Errors carry GitHub's exact bodies so clients (Octokit's RequestError, Locus's retry rules) see what they would in production.

const docs = "https://docs.github.com/rest";

export interface FieldError {
  resource: string;
  field: string;
  code: "missing" | "missing_field" | "invalid" | "already_exists" | "unprocessable" | "custom";
  message?: string;
}

export class HttpError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    super(typeof body.message === "string" ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export function notFound(): HttpError {
  return new HttpError(404, { message: "Not Found", documentation_url: docs, status: "404" });
}

export function badCredentials(): HttpError {
  return new HttpError(401, { message: "Bad credentials", documentation_url: docs, status: "401" });
}

export function requiresAuthentication(): HttpError {
  return new HttpError(401, { message: "Requires authentication", documentation_url: docs, status: "401" });
}

export function forbidden(message: string): HttpError {
  return new HttpError(403, { message, documentation_url: docs, status: "403" });
}

export function validationFailed(errors: FieldError[], message = "Validation Failed"): HttpError {
  return new HttpError(422, { message, errors, documentation_url: docs, status: "422" });
}

// Some endpoints (reviews, merges) answer 422 with plain string errors.
export function unprocessable(errors: string[]): HttpError {
  return new HttpError(422, {
    message: "Unprocessable Entity",
    errors,
    documentation_url: docs,
    status: "422",
  });
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, { message, documentation_url: docs, status: "400" });
}

export function secondaryRateLimit(retryAfterSeconds: number): HttpError {
  return new HttpError(
    403,
    {
      message:
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.",
      documentation_url:
        "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
      status: "403",
    },
    { "retry-after": String(retryAfterSeconds) },
  );
}

export function primaryRateLimit(login: string): HttpError {
  return new HttpError(403, {
    message: `API rate limit exceeded for user ID ${login}. If you reach out to GitHub Support for help, please include the request ID.`,
    documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
    status: "403",
  });
}

export function serverError(status: number): HttpError {
  return new HttpError(status, { message: "Server Error", documentation_url: docs, status: String(status) });
}
