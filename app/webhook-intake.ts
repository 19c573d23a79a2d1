/**
 * GitHub's webhook deliveries, answered as soon as they are known to be
 * GitHub's: before the answer, only what decides it (the headers GitHub
 * always sends, the body's HMAC-SHA256 signature against the app's secret,
 * compared in constant time, and that the body is JSON); after it, everything
 * else: Probot's event (an Octokit for the installation), Locus's filters, the
 * delivery-id and body dedupe, the work queue. Nothing acts on a delivery
 * before its signature holds, and GitHub waits on none of Locus's own work
 * (it gives up after 10 s and counts the delivery as failed).
 * https://docs.github.com/webhooks/using-webhooks/best-practices-for-using-webhooks#respond-within-10-seconds
 * https://docs.github.com/webhooks/using-webhooks/validating-webhook-deliveries
 *
 * Answers as Probot's own middleware does (200 "ok", 400 for a signature
 * that does not match or a body that is not JSON), so GitHub's delivery log
 * reads the same.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmitterWebhookEvent } from "@octokit/webhooks";
import type { Probot } from "probot";

const REQUIRED_HEADERS = ["x-github-event", "x-hub-signature-256", "x-github-delivery"] as const;

function answer(response: ServerResponse, status: number, body: string, type = "text/plain"): void {
  response.writeHead(status, { "content-type": type }).end(body);
}

function refuse(response: ServerResponse, status: number, error: string): void {
  answer(response, status, JSON.stringify({ error }), "application/json");
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

export type WebhookIntake = (request: IncomingMessage, response: ServerResponse) => void;

export function createWebhookIntake(probot: Probot): WebhookIntake {
  async function take(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!/^\s*application\/json\s*(?:;|$)/u.test(header(request, "content-type") ?? "")) {
      refuse(response, 415, 'Unsupported "Content-Type" header value. Must be "application/json"');
      request.resume();
      return;
    }
    const missing = REQUIRED_HEADERS.filter((name) => header(request, name) === undefined);
    if (missing.length > 0) {
      refuse(response, 400, `Required headers missing: ${missing.join(", ")}`);
      request.resume();
      return;
    }
    const text = (await readBody(request)).toString("utf8");
    const signed = await probot.webhooks
      .verify(text, header(request, "x-hub-signature-256") ?? "")
      .catch(() => false);
    if (!signed) {
      refuse(response, 400, "[@octokit/webhooks] signature does not match event payload and secret");
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      refuse(response, 400, "Invalid JSON");
      return;
    }
    answer(response, 200, "ok\n");
    // Handlers' errors reach Probot's error handler, which logs them; the delivery was answered.
    probot
      .receive({
        id: header(request, "x-github-delivery") ?? "",
        name: header(request, "x-github-event") ?? "",
        payload,
      } as EmitterWebhookEvent)
      .catch(() => undefined);
  }

  return (request, response) => {
    take(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        refuse(response, 500, error instanceof Error ? error.message : String(error));
    });
  };
}
