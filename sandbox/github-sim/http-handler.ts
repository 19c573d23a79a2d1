import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppKeys } from "./app-auth.ts";
import { tokenExpired, verifyAppJwt } from "./app-auth.ts";
import type { Actor, RequestContext, RouteAuth, RouteResult, SimCore } from "./core.ts";
import type { FaultAction, FaultRegistry } from "./faults.ts";
import { rateLimitedAnswer } from "./graphql-budget.ts";
import { executeGraphql, graphqlOperationName, mutationFields, requestCost } from "./graphql-endpoint.ts";
import { routePermission } from "./permission-table.ts";
import { acceptedHeader, allows, mutationRequirement, notAccessible } from "./token-permissions.ts";
import {
  HttpError,
  badCredentials,
  badRequest,
  notFound,
  primaryRateLimit,
  requiresAuthentication,
  secondaryRateLimit,
  serverError,
} from "./http-error.ts";
import type { RateLimiter, RateResource } from "./rate-limit.ts";
import { rateLimitHeaders } from "./rate-limit.ts";
import { matchRoute } from "./router.ts";
import { routes } from "./routes.ts";
import { findRepo, findUser } from "./store.ts";
import { tokenCoversRepo } from "./workflow-token.ts";
import { workflowTokenRefusal } from "./workflow-token-rules.ts";
import { handleGitRequest, isGitRequest } from "./git-http.ts";
import { handleAttachmentRequest, isAttachmentRequest } from "./attachments.ts";

export interface Exchange {
  requestId: string;
  method: string;
  // Path without the /api/v3 prefix and without the query string.
  path: string;
  // The route template that served the request, e.g. /repos/{owner}/{repo}/issues; null for unknown routes and GraphQL.
  template: string | null;
  query: URLSearchParams;
  requestHeaders: IncomingMessage["headers"];
  requestBody: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: unknown;
  graphql: boolean;
  operationName: string | null;
  // True when fault injection produced the response rather than the simulated GitHub.
  injected: boolean;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  operationName: string | null;
  login: string | null;
}

export interface HandlerDeps {
  core: SimCore;
  keys: AppKeys;
  limiter: RateLimiter;
  faults: FaultRegistry;
  delay: (ms: number) => Promise<void>;
  log: RequestLogEntry[];
  observe: ((exchange: Exchange) => void) | undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseJson(raw: string): unknown {
  if (raw.trim() === "") return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw badRequest("Problems parsing JSON");
  }
}

function credentials(req: IncomingMessage): { scheme: string; value: string } | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const [scheme = "", value = ""] = header.trim().split(/\s+/, 2);
  return { scheme: scheme.toLowerCase(), value };
}

function tokenActor(deps: HandlerDeps, value: string): Actor {
  const record = deps.core.store.tokens.get(value);
  if (!record || tokenExpired(deps.core.store, record)) throw badCredentials();
  const user = findUser(deps.core.store, record.login);
  if (!user) throw badCredentials();
  return { user, token: record };
}

function looksLikeJwt(value: string): boolean {
  return value.split(".").length === 3 && value.startsWith("eyJ");
}

export function createRequestHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const pathname = new URL(req.url ?? "/", deps.core.urls.web).pathname;
    if (isAttachmentRequest(pathname)) {
      const status = handleAttachmentRequest(deps.core.store, deps.core.urls.web, req, res);
      deps.log.push({
        method: req.method ?? "GET",
        path: pathname,
        status,
        operationName: null,
        login: null,
      });
      return;
    }
    const git = isGitRequest(pathname);
    (git ? handleGitRequest(deps.core.store, deps.core.urls.web, req, res) : handle(deps, req, res)).catch(
      (error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ message: error instanceof Error ? error.message : String(error) }));
        }
      },
    );
  };
}

async function handle(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = randomUUID().toUpperCase();
  const url = new URL(req.url ?? "/", deps.core.urls.web);
  const method = (req.method ?? "GET").toUpperCase();
  const prefixed = url.pathname.startsWith("/api/v3/") || url.pathname === "/api/v3";
  const path = prefixed ? url.pathname.slice("/api/v3".length) || "/" : url.pathname;
  const isGraphql = url.pathname === "/graphql" || url.pathname === "/api/graphql";
  const requestBase = `${deps.core.urls.web}${prefixed ? "/api/v3" : ""}`;
  const raw = await readBody(req);
  let requestBody: unknown = undefined;
  let operationName: string | null = null;
  let login: string | null = null;
  let template: string | null = null;
  let injected = false;
  // A fault that fires once the request has been carried out, in place of its answer.
  let afterApply: Extract<FaultAction, { kind: "status" | "drop" }> | undefined;

  const finish = (answer: RouteResult, extraHeaders: Record<string, string>): void => {
    let result = answer;
    if (afterApply) {
      injected = true;
      if (afterApply.kind === "drop") {
        deps.log.push({ method, path: isGraphql ? url.pathname : path, status: 0, operationName, login });
        req.socket.destroy();
        return;
      }
      const error = serverError(afterApply.status);
      result = { status: error.status, body: error.body, headers: error.headers };
    }
    const headers: Record<string, string> = {
      "x-github-request-id": requestId,
      "x-github-api-version-selected": "2022-11-28",
      "x-github-media-type": "github.v3; format=json",
      ...extraHeaders,
      ...result.headers,
    };
    let payload = "";
    if (result.text !== undefined) {
      payload = result.text;
      headers["content-type"] = result.contentType ?? "text/plain; charset=utf-8";
    } else if (result.body !== undefined && result.status !== 204 && result.status !== 304) {
      payload = JSON.stringify(result.body);
      headers["content-type"] = "application/json; charset=utf-8";
    }
    res.writeHead(result.status, headers);
    res.end(payload);
    deps.log.push({
      method,
      path: isGraphql ? url.pathname : path,
      status: result.status,
      operationName,
      login,
    });
    deps.observe?.({
      requestId,
      method,
      path,
      template,
      query: url.searchParams,
      requestHeaders: req.headers,
      requestBody,
      status: result.status,
      responseHeaders: headers,
      responseBody: result.text ?? result.body,
      graphql: isGraphql,
      operationName,
      injected,
    });
  };

  const resource: RateResource = isGraphql ? "graphql" : "core";
  try {
    requestBody = parseJson(raw);
    if (isGraphql) operationName = graphqlOperationName(requestBody);
    const faults = deps.faults.take(method, isGraphql ? url.pathname : path, operationName);
    // Latency applies before whatever else fires, so a delayed request can still fail.
    faults.sort((a, b) => Number(b.kind === "latency") - Number(a.kind === "latency"));
    for (const fault of faults) {
      if (fault.kind === "latency") {
        await deps.delay(fault.ms);
        continue;
      }
      if (fault.kind === "hang") {
        fault.onHang?.();
        if (fault.release) {
          await fault.release;
          continue;
        }
        await new Promise((resolve) => req.socket.once("close", resolve));
        deps.log.push({ method, path: isGraphql ? url.pathname : path, status: 0, operationName, login });
        return;
      }
      if ((fault.kind === "status" || fault.kind === "drop") && fault.afterApply) {
        afterApply = fault;
        continue;
      }
      injected = true;
      if (fault.kind === "drop") {
        deps.log.push({ method, path: isGraphql ? url.pathname : path, status: 0, operationName, login });
        req.socket.destroy();
        return;
      }
      throw fault.kind === "status" ? serverError(fault.status) : secondaryRateLimit(fault.retryAfter);
    }

    if (isGraphql) {
      if (method !== "POST") throw notFound();
      const actor = authenticate(deps, req, "token");
      login = actor.user.login;
      const cost = requestCost(requestBody);
      const bucket = deps.limiter.peek(rateKey(actor), resource);
      // A query that costs more points than are left is refused whole, with 200 (graphql-budget.ts).
      if (bucket.used + cost > bucket.limit) {
        finish(
          { status: 200, body: rateLimitedAnswer(deps.core.store, actor.token, actor.user.login) },
          rateLimitHeaders(bucket, resource),
        );
        return;
      }
      const refused = refusedMutation(deps, actor, requestBody);
      if (refused) {
        deps.limiter.consume(rateKey(actor), resource, 1);
        finish(
          { status: 200, body: refused },
          rateLimitHeaders(deps.limiter.peek(rateKey(actor), resource), resource),
        );
        return;
      }
      const result = await executeGraphql(deps.core, actor, bucket, requestBody);
      deps.limiter.consume(rateKey(actor), resource, cost);
      finish(
        { status: 200, body: result },
        rateLimitHeaders(deps.limiter.peek(rateKey(actor), resource), resource),
      );
      return;
    }

    const match = matchRoute(routes, method, path);
    if (match === null || match === "method-not-allowed") throw notFound();
    template = match.route.template;
    const actor = authenticate(deps, req, match.route.auth);
    login = actor.user.login;
    if (match.route.auth !== "jwt") checkTokenPermission(deps, actor, method, template);
    const repo = template.startsWith("/repos/{owner}/{repo}")
      ? findRepo(deps.core.store, match.params.owner ?? "", match.params.repo ?? "")
      : undefined;
    if (repo && !tokenCoversRepo(actor.token, repo.owner, repo.name)) throw notFound();
    const refusal = repo && workflowTokenRefusal(repo, actor.token, { method, template, body: requestBody });
    if (refusal) throw refusal;
    const countsAgainstLimit = template !== "/rate_limit" && match.route.auth !== "jwt";
    const bucket = countsAgainstLimit
      ? checkRate(deps, actor, resource)
      : deps.limiter.peek(rateKey(actor), resource);
    const ctx: RequestContext = {
      core: deps.core,
      method,
      path,
      params: match.params,
      query: url.searchParams,
      body: requestBody,
      headers: req.headers,
      actor,
      requestBase,
    };
    const result = await match.route.handler(ctx);
    const conditional = method === "GET" && result.status === 200 ? withEtag(req, result) : result;
    // GitHub does not charge 304s against the rate limit.
    if (countsAgainstLimit && conditional.status !== 304) deps.limiter.consume(rateKey(actor), resource, 1);
    finish(conditional, rateLimitHeaders(bucket, resource));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const actorKey = login ?? "anonymous";
    finish(
      { status: error.status, body: error.body, headers: error.headers },
      rateLimitHeaders(deps.limiter.peek(actorKey, resource), resource),
    );
  }
}

function rateKey(actor: Actor): string {
  return actor.token?.token ?? actor.user.login;
}

function checkRate(deps: HandlerDeps, actor: Actor, resource: RateResource) {
  const bucket = deps.limiter.peek(rateKey(actor), resource);
  if (bucket.used >= bucket.limit) {
    throw new HttpError(403, primaryRateLimit(actor.user.login).body, rateLimitHeaders(bucket, resource));
  }
  return bucket;
}

// A mutation needs the same permission as its REST twin
// (https://docs.github.com/rest/authentication/permissions-required-for-github-apps); GitHub then
// refuses the whole document with a FORBIDDEN error. That error's shape is what GitHub answers (its
// GraphQL docs do not spell it out: https://docs.github.com/graphql/overview/about-the-graphql-api).
function refusedMutation(deps: HandlerDeps, actor: Actor, body: unknown): Record<string, unknown> | null {
  for (const field of mutationFields(body)) {
    const needed = mutationRequirement(field);
    if (needed && !allows(actor.token, needed)) {
      deps.core.store.permissionViolations.push({
        kind: "refused",
        route: `graphql ${field}`,
        login: actor.user.login,
        needed: acceptedHeader(needed),
      });
      return {
        data: null,
        errors: [{ type: "FORBIDDEN", path: [field], message: "Resource not accessible by integration" }],
      };
    }
  }
  return null;
}

/**
 * An installation or workflow token may call a route only where GitHub's
 * published data lists it and with a permission that covers it; a person's
 * token has only its repository role. Either refusal is also recorded for
 * the tests (store.permissionViolations), so a route GitHub does not list
 * cannot pass unseen.
 */
function checkTokenPermission(deps: HandlerDeps, actor: Actor, method: string, template: string): void {
  if (!actor.token?.permissions) return;
  const permission = routePermission(method, template);
  if (permission.kind === "free") return;
  const route = `${method} ${template}`;
  const violations = deps.core.store.permissionViolations;
  if (permission.kind === "unlisted") {
    violations.push({ kind: "unlisted", route, login: actor.user.login, needed: "" });
    throw notAccessible([]);
  }
  if (allows(actor.token, permission.needed)) return;
  violations.push({
    kind: "refused",
    route,
    login: actor.user.login,
    needed: acceptedHeader(permission.needed),
  });
  throw notAccessible(permission.needed);
}

function authenticate(deps: HandlerDeps, req: IncomingMessage, mode: RouteAuth): Actor {
  const auth = credentials(req);
  if (!auth) throw requiresAuthentication();
  if (auth.scheme !== "token" && auth.scheme !== "bearer") throw badCredentials();
  if (mode === "jwt") {
    if (!looksLikeJwt(auth.value)) {
      throw new HttpError(401, {
        message: "A JSON web token could not be decoded",
        documentation_url: "https://docs.github.com/rest",
        status: "401",
      });
    }
    verifyAppJwt(auth.value, deps.keys, deps.core.store.app.id, deps.core.store.now());
    const bot = findUser(deps.core.store, deps.core.store.app.botLogin);
    if (!bot) throw badCredentials();
    return { user: bot, token: null };
  }
  return tokenActor(deps, auth.value);
}

function withEtag(req: IncomingMessage, result: RouteResult): RouteResult {
  const payload = result.text ?? JSON.stringify(result.body);
  const etag = `W/"${createHash("sha256").update(payload).digest("hex").slice(0, 32)}"`;
  const headers = { ...result.headers, etag };
  const ifNoneMatch = req.headers["if-none-match"];
  if (
    ifNoneMatch &&
    ifNoneMatch.split(",").some((tag) => tag.trim() === etag || tag.trim() === etag.slice(2))
  ) {
    return { status: 304, headers };
  }
  return { ...result, headers };
}
