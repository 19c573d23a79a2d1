/**
 * The simulator's manifest flow holds to GitHub's rules: a manifest without a
 * webhook URL is refused, a code is traded once and within the hour, and the
 * registration sends the webhooks to the manifest's URL, signed with the
 * secret the conversion hands out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitHubSimulator, type GitHubSimulator } from "../../../sandbox/github-sim/index.ts";

let sim: GitHubSimulator;
let clock = new Date("2026-11-28T12:00:00Z");

const manifest = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: "Acme Locus",
    url: "https://example.org/locus",
    hook_attributes: { url: "http://127.0.0.1:9/" },
    redirect_url: "http://127.0.0.1:9/probot/setup",
    default_permissions: { issues: "write", checks: "read" },
    default_events: ["issues"],
    ...overrides,
  });

async function register(text: string): Promise<Response> {
  return fetch(`${sim.url}/settings/apps/new`, {
    method: "POST",
    body: new URLSearchParams({ manifest: text }),
    redirect: "manual",
  });
}

async function convert(code: string): Promise<Response> {
  return fetch(`${sim.apiUrl}/app-manifests/${code}/conversions`, { method: "POST" });
}

async function codeFor(text: string): Promise<string> {
  const response = await register(text);
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location") ?? "").searchParams.get("code") ?? "";
}

beforeAll(async () => {
  sim = await startGitHubSimulator({ now: () => clock });
});

afterAll(async () => {
  await sim.close();
});

describe("registering the app from a manifest", () => {
  it("refuses a manifest without a webhook URL", async () => {
    const response = await register(manifest({ hook_attributes: undefined }));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toContain("hook_attributes.url");
  });

  it("redirects with a code that is traded once for the app's credentials and registers the webhook", async () => {
    const code = await codeFor(manifest());
    const response = await convert(code);
    expect(response.status).toBe(201);
    const app = (await response.json()) as { id: number; pem: string; webhook_secret: string };
    expect(app.id).toBe(sim.app.id);
    expect(app.pem).toBe(sim.appPrivateKey);
    expect(app.webhook_secret).toMatch(/^[0-9a-f]{40}$/);
    expect(sim.webhooks.url).toBe("http://127.0.0.1:9/");
    expect(sim.webhooks.secret).toBe(app.webhook_secret);
    expect(sim.app.permissions).toEqual({ metadata: "read", issues: "write", checks: "read" });
    expect((await convert(code)).status).toBe(404);
  });

  it("refuses a code more than an hour old", async () => {
    const code = await codeFor(manifest());
    clock = new Date(clock.getTime() + 61 * 60_000);
    expect((await convert(code)).status).toBe(404);
  });
});
