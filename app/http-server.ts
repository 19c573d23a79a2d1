/**
 * The HTTP server in front of Probot's webhook middleware. It turns away what
 * GitHub never sends before any signature work: bodies without a length or
 * over the cap (413), and senders too slow to finish a request (408, Node's
 * own request timeout). The webhook intake then checks the signature,
 * answers, and hands the event to the app (app/webhook-intake.ts). `POST /locus/token` is the token exchange
 * (app/token-route.ts), answered 404 when the server has none. Webhooks are
 * taken at the webhook path and at `/`, the URL Probot's setup flow registers
 * the app with.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { ApplicationFunction, Probot } from "probot";
import { TOKEN_PATH, type TokenRoute } from "./token-route.ts";
import { createWebhookIntake } from "./webhook-intake.ts";

export interface LocusServerOptions {
  readonly probot: Probot;
  readonly appFn: ApplicationFunction;
  readonly webhookPath?: string;
  /** GitHub's payloads for the events Locus takes are far below this. */
  readonly maxBodyBytes?: number;
  readonly requestTimeoutMs?: number;
  readonly headersTimeoutMs?: number;
  /** How often Node checks those timeouts (its default is 30 s). */
  readonly timeoutCheckMs?: number;
  /** The OIDC token exchange (app/token-exchange.ts). */
  readonly tokenRoute?: TokenRoute;
}

export const DEFAULT_WEBHOOK_PATH = "/api/github/webhooks";
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "text/plain", connection: "close" }).end(message);
}

export async function createLocusServer(options: LocusServerOptions): Promise<Server> {
  const webhookPath = options.webhookPath ?? DEFAULT_WEBHOOK_PATH;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  await options.probot.load(options.appFn);
  const intake = createWebhookIntake(options.probot);

  function guard(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== "POST" || request.url?.split("?")[0] !== webhookPath) return true;
    const length = Number(request.headers["content-length"] ?? Number.NaN);
    if (!Number.isSafeInteger(length)) {
      refuse(response, 411, "Content-Length required");
      return false;
    }
    if (length > maxBodyBytes) {
      refuse(response, 413, `Payload over ${maxBodyBytes} bytes`);
      request.resume();
      return false;
    }
    return true;
  }

  const server = createServer(
    { connectionsCheckingInterval: options.timeoutCheckMs ?? 1_000 },
    (request, response) => {
      if (request.method === "GET" && request.url === "/ping") {
        response.writeHead(200, { "content-type": "text/plain" }).end("PONG");
        return;
      }
      if (request.method === "POST" && request.url?.split("?")[0] === TOKEN_PATH && options.tokenRoute) {
        options.tokenRoute(request, response);
        return;
      }
      if (request.method === "POST" && request.url === "/") request.url = webhookPath;
      if (!guard(request, response)) return;
      if (request.method === "POST" && request.url?.split("?")[0] === webhookPath) {
        intake(request, response);
        return;
      }
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
    },
  );
  server.requestTimeout = options.requestTimeoutMs ?? 10_000;
  server.headersTimeout = options.headersTimeoutMs ?? 5_000;
  return server;
}
