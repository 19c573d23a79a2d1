import type { IncomingHttpHeaders } from "node:http";
import type { CheckRun } from "./ci-model.ts";
import type { Repo, Store, TokenRecord, User } from "./model.ts";
import type { Bucket, RateResource } from "./rate-limit.ts";
import type { WebhookQueue } from "./webhooks.ts";

// Shared types between the server, the route modules and the serializers.

export interface SimUrls {
  // Web root (html_url) and REST root (url fields); REST is also served under /api/v3.
  web: string;
  api: string;
}

export interface Actor {
  user: User;
  token: TokenRecord | null;
}

export interface EmitOptions {
  repo: Repo | null;
  sender: User;
}

export interface SimCore {
  store: Store;
  urls: SimUrls;
  emit: (event: string, payload: Record<string, unknown>, options: EmitOptions) => void;
  // The app's webhook deliveries, listed and redelivered by the /app/hook/deliveries endpoints.
  webhooks: WebhookQueue;
  startRun: (repo: Repo, runId: number) => void;
  cancelRun: (repo: Repo, runId: number, by: User) => void;
  rateLimit: (tokenKey: string, resource: RateResource) => Bucket;
  // GitHub evaluates a workflow's `run-name` when the run is created; the simulator asks this.
  runName?: (run: { workflowPath: string; inputs: Record<string, string> }) => string | undefined;
  // Reusable workflows the simulator can read, by `uses` without `@ref` (for their concurrency groups).
  calledWorkflows: Readonly<Record<string, string>>;
  // Whether a dispatch honours `return_run_details` (see GitHubSimulatorOptions.dispatchRunDetails).
  dispatchRunDetails: boolean | "rejected";
  // Where job logs are downloaded from (a signed URL on another host, as GitHub redirects to).
  ciLogs?: { urlFor: (run: CheckRun) => string };
}

export interface RequestContext {
  core: SimCore;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
  actor: Actor | null;
  // Base of the URL the client used (root or /api/v3), for Link headers.
  requestBase: string;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

// "jwt": the app's own endpoints; "token": installation tokens and user tokens.
export type RouteAuth = "token" | "jwt";

export interface Route {
  method: string;
  template: string;
  auth: RouteAuth;
  handler: (ctx: RequestContext) => Promise<RouteResult> | RouteResult;
}
