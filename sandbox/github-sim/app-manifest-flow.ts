/**
 * Registering the app from a manifest, as Probot's setup flow does it
 * (https://docs.github.com/apps/sharing-github-apps/registering-a-github-app-from-a-manifest):
 * the setup page posts the manifest to `/settings/apps/new` (or an
 * organisation's), the user confirms and GitHub redirects to the manifest's
 * `redirect_url` with a one-time code; the app's server trades the code within
 * the hour at `POST /app-manifests/{code}/conversions` for the app's id, key
 * and webhook secret. The simulator plays the confirmation as given: the
 * registration takes the manifest's name, permissions and events, and webhooks
 * go from then on to the manifest's `hook_attributes.url`, signed with the
 * secret the conversion hands out, so a manifest that names the wrong URL
 * loses every webhook here as it would on GitHub.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Store } from "./model.ts";
import type { WebhookQueue } from "./webhooks.ts";

const CODE_LIFETIME_MS = 60 * 60_000;
const NEW_APP_PATH = /^\/(?:organizations\/[^/]+\/)?settings\/apps\/new$/;
const CONVERSION_PATH = /^\/api\/v3\/app-manifests\/([^/]+)\/conversions$/;

interface Manifest {
  readonly name: string;
  readonly url: string;
  readonly hookUrl: string;
  readonly redirectUrl: string;
  readonly permissions: Record<string, "read" | "write">;
  readonly events: readonly string[];
}

export interface AppManifestFlowDeps {
  readonly store: Store;
  readonly webhooks: WebhookQueue;
  readonly privateKeyPem: string | null;
  readonly webUrl: () => string;
}

export interface AppManifestFlow {
  /** Serves the two steps; false when the request is neither. */
  handle: (request: IncomingMessage, response: ServerResponse) => boolean;
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value ? value : undefined;
}

/** The fields GitHub requires, or the reason the manifest is refused. */
function parseManifest(text: string): Manifest | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return "The manifest is not JSON.";
  }
  const manifest = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const hook = (manifest.hook_attributes ?? {}) as Record<string, unknown>;
  const name = nonEmpty(manifest.name);
  const url = nonEmpty(manifest.url);
  const hookUrl = nonEmpty(hook.url);
  const redirectUrl = nonEmpty(manifest.redirect_url);
  if (!name || !url || !hookUrl || !redirectUrl) {
    return "The manifest needs name, url, hook_attributes.url and redirect_url.";
  }
  const permissions: Record<string, "read" | "write"> = { metadata: "read" };
  const asked = (manifest.default_permissions ?? {}) as Record<string, unknown>;
  for (const [scope, level] of Object.entries(asked)) {
    if (level !== "read" && level !== "write") return `default_permissions.${scope} must be read or write.`;
    permissions[scope] = level;
  }
  const events = Array.isArray(manifest.default_events) ? manifest.default_events.map(String) : [];
  return { name, url, hookUrl, redirectUrl, permissions, events };
}

export function createAppManifestFlow(deps: AppManifestFlowDeps): AppManifestFlow {
  const pending = new Map<string, { manifest: Manifest; expiresAt: number }>();

  async function confirm(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(request));
    const manifest = parseManifest(form.get("manifest") ?? "");
    if (typeof manifest === "string") return reply(response, 422, { message: manifest });
    const code = randomBytes(10).toString("hex");
    pending.set(code, { manifest, expiresAt: deps.store.now().getTime() + CODE_LIFETIME_MS });
    const target = new URL(manifest.redirectUrl);
    target.searchParams.set("code", code);
    response.writeHead(302, { location: target.toString() }).end();
  }

  function convert(code: string, response: ServerResponse): void {
    const entry = pending.get(code);
    pending.delete(code);
    if (!entry || entry.expiresAt <= deps.store.now().getTime() || !deps.privateKeyPem) {
      return reply(response, 404, { message: "Not Found" });
    }
    const { app } = deps.store;
    app.name = entry.manifest.name;
    app.permissions = entry.manifest.permissions;
    app.events = entry.manifest.events;
    const webhookSecret = randomBytes(20).toString("hex");
    deps.webhooks.url = entry.manifest.hookUrl;
    deps.webhooks.secret = webhookSecret;
    reply(response, 201, {
      id: app.id,
      slug: app.slug,
      node_id: `A_${app.id}`,
      name: app.name,
      owner: { login: app.ownerLogin },
      external_url: entry.manifest.url,
      html_url: `${deps.webUrl()}/apps/${app.slug}`,
      permissions: app.permissions,
      events: app.events,
      client_id: `Iv1.sim${app.id}`,
      client_secret: randomBytes(20).toString("hex"),
      webhook_secret: webhookSecret,
      pem: deps.privateKeyPem,
    });
  }

  return {
    handle(request, response) {
      const path = (request.url ?? "").split("?")[0] ?? "";
      if (request.method !== "POST") return false;
      if (NEW_APP_PATH.test(path)) {
        void confirm(request, response);
        return true;
      }
      const code = CONVERSION_PATH.exec(path)?.[1];
      if (code === undefined) return false;
      request.resume();
      convert(decodeURIComponent(code), response);
      return true;
    },
  };
}
