/**
 * Deliveries GitHub did not sign with our secret never reach a handler: no
 * GitHub call is made for them. Payloads are GitHub's own examples.
 */
import { createHmac, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appCalls, owner, repo, runs } from "./github-helpers.ts";
import { startAppHarness, WEBHOOK_SECRET, type AppHarness } from "./harness.ts";

interface WebhookExample {
  name: string;
  examples: Array<{ action?: string } & Record<string, unknown>>;
}
const examples = createRequire(import.meta.url)(
  "@octokit/webhooks-examples/api.github.com/index.json",
) as WebhookExample[];

function commentExample(body: string): Record<string, unknown> {
  const example = examples
    .find((group) => group.name === "issue_comment")
    ?.examples.find((e) => e.action === "created");
  if (!example) throw new Error("no issue_comment.created example");
  const payload = structuredClone(example) as {
    comment: { body: string };
    repository: Record<string, unknown>;
    installation?: unknown;
  };
  payload.comment.body = body;
  payload.repository = {
    ...payload.repository,
    name: repo,
    full_name: `${owner}/${repo}`,
    default_branch: "main",
    owner: { login: owner, id: 1, type: "User" },
  };
  payload.installation = { id: installationId() };
  return payload;
}

let h: AppHarness;
function installationId(): number {
  const installation = [...h.sim.store.installations.values()].find((i) => i.account === owner);
  if (!installation) throw new Error(`${owner} has no installation`);
  return installation.id;
}
beforeAll(async () => {
  h = await startAppHarness();
});
afterAll(async () => {
  await h.close();
});

async function deliver(
  payload: Record<string, unknown>,
  headers: Record<string, string | undefined>,
  url: string = h.webhookUrl,
): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: Object.fromEntries(
      Object.entries({
        "content-type": "application/json",
        "x-github-event": "issue_comment",
        "x-github-delivery": randomUUID(),
        ...headers,
      }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    body: JSON.stringify(payload),
  });
  await response.text();
  await h.settle();
  return response.status;
}

function sign(secret: string, payload: Record<string, unknown>, algorithm = "sha256"): string {
  return `${algorithm}=${createHmac(algorithm, secret).update(JSON.stringify(payload)).digest("hex")}`;
}

describe("webhook signatures", () => {
  let payload: Record<string, unknown>;
  beforeAll(async () => {
    await h.as("alice").rest.issues.create({ owner, repo, title: "Target of the example" });
    await h.settle();
    payload = commentExample("/locus help");
  });

  it.each([
    ["missing", () => undefined],
    ["forged with another secret", () => sign("not-the-secret-0123456789", payload)],
    ["of another body", () => sign(WEBHOOK_SECRET, { ...payload, extra: true })],
    ["sha1 only", () => sign(WEBHOOK_SECRET, payload, "sha1")],
    ["malformed", () => "sha256=zz"],
  ])("rejects a %s signature with no GitHub call", async (_name, signature) => {
    const before = h.sim.requestLog.length;
    const status = await deliver(payload, { "x-hub-signature-256": signature() });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(appCalls(h, before)).toEqual([]);
    expect(h.sim.requestLog.length).toBe(before);
  });

  it("accepts a correctly signed delivery and acts on it", async () => {
    const before = h.sim.requestLog.length;
    const status = await deliver(payload, { "x-hub-signature-256": sign(WEBHOOK_SECRET, payload) });
    expect(status).toBe(200);
    expect(appCalls(h, before)).toContain(`POST /repos/${owner}/${repo}/issues/1/comments`);
  });

  it("takes deliveries at /, where Probot's setup flow registers the app, with the same check", async () => {
    const root = new URL("/", h.webhookUrl).toString();
    const fresh = commentExample("/locus help") as { comment: { id: number } } & Record<string, unknown>;
    fresh.comment.id += 1_000;
    const forged = sign("not-the-secret-0123456789", fresh);
    const before = h.sim.requestLog.length;
    expect(await deliver(fresh, { "x-hub-signature-256": forged }, root)).toBe(400);
    expect(h.sim.requestLog.length).toBe(before);
    expect(await deliver(fresh, { "x-hub-signature-256": sign(WEBHOOK_SECRET, fresh) }, root)).toBe(200);
    // The app acknowledges the command with a reaction on that comment.
    expect(appCalls(h, before)).toContain(
      `POST /repos/${owner}/${repo}/issues/comments/${fresh.comment.id}/reactions`,
    );
  });

  it("dispatches nothing twice when GitHub redelivers the same delivery", async () => {
    const { data: issue } = await h.as("alice").rest.issues.create({ owner, repo, title: "Once" });
    await h.settle();
    const run = commentExample("/locus run");
    const issuePayload = run.issue as Record<string, unknown>;
    run.issue = {
      ...issuePayload,
      number: issue.number,
      labels: [],
      milestone: null,
      pull_request: undefined,
    };
    run.sender = { login: "alice", id: 501, type: "User" };
    const delivery = randomUUID();
    const headers = { "x-github-delivery": delivery, "x-hub-signature-256": sign(WEBHOOK_SECRET, run) };
    expect(await deliver(run, headers)).toBe(200);
    expect(await deliver(run, headers)).toBe(200);
    expect(runs(h).filter((r) => r.inputs.delivery === delivery)).toHaveLength(1);
  });

  it("dispatches nothing for a captured signed body replayed under a new delivery id", async () => {
    const { data: issue } = await h.as("alice").rest.issues.create({ owner, repo, title: "Replayed" });
    await h.settle();
    const run = commentExample("/locus run");
    run.issue = {
      ...(run.issue as Record<string, unknown>),
      number: issue.number,
      labels: [],
      milestone: null,
    };
    run.sender = { login: "alice", id: 501, type: "User" };
    const signature = sign(WEBHOOK_SECRET, run);
    const first = randomUUID();
    expect(await deliver(run, { "x-github-delivery": first, "x-hub-signature-256": signature })).toBe(200);
    const before = h.sim.requestLog.length;

    const again = randomUUID();
    expect(await deliver(run, { "x-github-delivery": again, "x-hub-signature-256": signature })).toBe(200);

    expect(runs(h).filter((r) => r.inputs.issue === String(issue.number))).toHaveLength(1);
    expect(appCalls(h, before)).toEqual([]);
  });
});
