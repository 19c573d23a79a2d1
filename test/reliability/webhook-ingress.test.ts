/**
 * Webhook intake (docs/reliability.md: signatures, duplicates, order, own events, who may trigger):
 * the real app behind its real server, deliveries held back from the
 * simulator and sent by the test — replayed, reordered, re-serialised,
 * forged — with GitHub's state checked afterwards.
 */
import { Webhooks } from "@octokit/webhooks";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhookDelivery } from "../../sandbox/github-sim/webhooks.ts";
import { appCalls, commentsOf, labelsOf, newIssue, owner, repo, runs } from "../app/github-helpers.ts";
import { startAppHarness, type AppHarness } from "../app/harness.ts";
import { hold, inParallel, send, sign, startReplica } from "./app-helpers.ts";

let h: AppHarness;
beforeAll(async () => {
  // Public: outsiders (mallory) can comment and must still dispatch nothing.
  h = await startAppHarness({ public: true });
  h.repo.collaborator("tom", "triage");
  h.sim.seed.user("helper-bot[bot]", "Bot");
  h.repo.collaborator("helper-bot[bot]", "write");
});
afterAll(async () => {
  await h.close();
});

const runsOf = (issue: number) => runs(h).filter((run) => run.inputs.issue === String(issue));
const statusCommentsOf = async (issue: number) =>
  (await commentsOf(h, issue)).filter((body) => body.startsWith("<!-- locus:status -->"));
const label = (login: string, issue: number, name = "locus:queued") =>
  h.as(login).rest.issues.addLabels({ owner, repo, issue_number: issue, labels: [name] });
const postComment = (login: string, issue: number, body: string) =>
  h.as(login).rest.issues.createComment({ owner, repo, issue_number: issue, body });

function only(deliveries: WebhookDelivery[], event: string, action: string): WebhookDelivery {
  const found = deliveries.filter((d) => d.event === event && d.action === action);
  if (found.length !== 1) throw new Error(`expected one ${event}.${action}, got ${found.length}`);
  return found[0] as WebhookDelivery;
}

/** The delivery with its payload changed and re-signed with the real secret, under a new id. */
function forged(delivery: WebhookDelivery, change: (payload: Record<string, unknown>) => void) {
  const payload = structuredClone(delivery.payload);
  change(payload);
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      ...delivery.headers,
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": sign(body),
    },
  };
}

describe("signatures over the raw bytes", () => {
  it("verifies GitHub's published test vector with the library the app uses", async () => {
    const secret = "It's a Secret to Everybody";
    const vector = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    expect(sign("Hello, World!", secret)).toBe(vector);
    const webhooks = new Webhooks({ secret });
    expect(await webhooks.verify("Hello, World!", vector)).toBe(true);
    expect(await webhooks.verify("Hello, World!!", vector)).toBe(false);
    expect(await webhooks.verify("Hello, World!", vector.replace(/7$/, "8"))).toBe(false);
  });

  it("accepts a valid signature over bytes that re-serialise differently, and acts on them", async () => {
    const issue = await newIssue(h, "Raw bytes");
    const [delivery] = await hold(h, () => postComment("alice", issue, "/locus help\n\ncafé at src/é/x"));
    if (!delivery) throw new Error("no delivery");
    const payload = delivery.payload;
    // Keys in reverse order, three-space indentation, `\/` and `\u00e9` escapes: the same JSON value.
    const reversed = Object.fromEntries(Object.entries(payload).reverse());
    const raw = JSON.stringify(reversed, null, 3).replace(/\//g, "\\/").replace(/é/g, "\\u00e9");
    expect(JSON.parse(raw)).toEqual(payload);
    expect(raw).not.toBe(JSON.stringify(JSON.parse(raw)));
    const before = h.sim.requestLog.length;

    const status = await send(h.webhookUrl, {
      body: raw,
      headers: { ...delivery.headers, "x-hub-signature-256": sign(raw) },
    });
    await h.settle();

    expect(status).toBe(200);
    expect(appCalls(h, before)).toContain(`POST /repos/${owner}/${repo}/issues/${issue}/comments`);
    expect((await commentsOf(h, issue)).filter((body) => body.includes("/locus run"))).toHaveLength(1);
  });

  it("turns away every malformed or misplaced signature with a 4xx and no GitHub call", async () => {
    const issue = await newIssue(h, "Forgeries");
    const [delivery] = await hold(h, () => label("alice", issue));
    if (!delivery) throw new Error("no delivery");
    const good = delivery.headers["x-hub-signature-256"] ?? "";
    const variants: Array<[string, { body: string; signature: string | undefined }]> = [
      ["uppercase hex", { body: delivery.body, signature: `sha256=${good.slice(7).toUpperCase()}` }],
      ["truncated hex", { body: delivery.body, signature: good.slice(0, -2) }],
      ["odd-length hex", { body: delivery.body, signature: good.slice(0, -1) }],
      ["empty digest", { body: delivery.body, signature: "sha256=" }],
      ["body with one byte appended", { body: `${delivery.body} `, signature: good }],
      ["body with one byte removed", { body: delivery.body.slice(0, -1), signature: good }],
      ["digest without its prefix", { body: delivery.body, signature: good.slice(7) }],
      ["digest of the secret alone", { body: delivery.body, signature: sign("") }],
      ["sha1 header valid, sha256 missing", { body: delivery.body, signature: undefined }],
    ];
    const before = h.sim.requestLog.length;
    for (const [name, variant] of variants) {
      const headers: Record<string, string> = { ...delivery.headers, "x-github-delivery": randomUUID() };
      delete headers["x-hub-signature-256"];
      if (variant.signature !== undefined) headers["x-hub-signature-256"] = variant.signature;
      const status = await send(h.webhookUrl, { body: variant.body, headers });
      expect([name, status >= 400 && status < 500]).toEqual([name, true]);
    }
    await h.settle();
    expect(h.sim.requestLog.length).toBe(before);
    expect(runsOf(issue)).toHaveLength(0);
  });
});

describe("the same delivery again and again", () => {
  it("×50, 10 at a time, then ×5 to a restarted app: one dispatch, one status comment", async () => {
    const issue = await newIssue(h, "Fifty times");
    const delivery = only(await hold(h, () => label("alice", issue)), "issues", "labeled");

    const statuses = await inParallel(
      Array.from({ length: 50 }, () => delivery),
      10,
      (d) => send(h.webhookUrl, d),
    );
    await h.settle();
    const replica = await startReplica(h);
    for (let i = 0; i < 5; i++) statuses.push(await send(replica.url, delivery));
    await replica.close();
    await h.settle();

    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(runsOf(issue).map((run) => run.inputs.delivery)).toEqual([delivery.id]);
    expect(await statusCommentsOf(issue)).toHaveLength(1);
  });
});

describe("duplicate and out-of-order events", () => {
  it("two /locus run comments handled at once: one dispatch, one active task", async () => {
    const issue = await newIssue(h, "Run twice");
    const deliveries = await hold(h, async () => {
      await postComment("alice", issue, "/locus run");
      await postComment("alice", issue, "/locus run");
    });
    expect(deliveries).toHaveLength(2);

    await Promise.all(deliveries.map((d) => send(h.webhookUrl, d)));
    await h.settle();

    expect(runsOf(issue)).toHaveLength(1);
    expect(await statusCommentsOf(issue)).toHaveLength(1);
    expect(await labelsOf(h, issue)).toContain("locus:queued");
  });

  it("label removed before its labeled event arrives: nothing is dispatched or re-labelled", async () => {
    const issue = await newIssue(h, "Changed my mind");
    const deliveries = await hold(h, async () => {
      await label("alice", issue);
      await h.as("alice").rest.issues.removeLabel({ owner, repo, issue_number: issue, name: "locus:queued" });
    });
    const labeled = only(deliveries, "issues", "labeled");
    const unlabeled = only(deliveries, "issues", "unlabeled");

    expect(await send(h.webhookUrl, unlabeled)).toBe(200);
    expect(await send(h.webhookUrl, labeled)).toBe(200);
    await h.settle();

    expect(runsOf(issue)).toHaveLength(0);
    expect(await labelsOf(h, issue)).not.toContain("locus:queued");
  });

  it("issue closed before its labeled event arrives: nothing is dispatched", async () => {
    const issue = await newIssue(h, "Closed first");
    const deliveries = await hold(h, async () => {
      await label("alice", issue);
      await h.as("alice").rest.issues.update({ owner, repo, issue_number: issue, state: "closed" });
    });
    const labeled = only(deliveries, "issues", "labeled");
    const closed = only(deliveries, "issues", "closed");

    expect(await send(h.webhookUrl, closed)).toBe(200);
    expect(await send(h.webhookUrl, labeled)).toBe(200);
    await h.settle();

    expect(runsOf(issue)).toHaveLength(0);
  });
});

describe("events that must never dispatch", () => {
  it("the app's own label and comment events: no dispatch and no GitHub write", async () => {
    const issue = await newIssue(h, "Self");
    const deliveries = await hold(h, async () => {
      await label("alice", issue);
      await postComment("alice", issue, "/locus run");
    });
    const self = { login: h.sim.app.botLogin, id: 9_999, type: "Bot" };
    const before = h.sim.requestLog.length;
    for (const delivery of deliveries) {
      const asSelf = forged(delivery, (payload) => {
        payload.sender = self;
        const comment = payload.comment as { user?: unknown } | undefined;
        if (comment) comment.user = self;
      });
      expect(await send(h.webhookUrl, asSelf)).toBe(200);
    }
    await h.settle();

    expect(runsOf(issue)).toHaveLength(0);
    expect(appCalls(h, before).filter((call) => !call.startsWith("GET "))).toEqual([]);
  });

  it.each([
    ["eve", "read", 1],
    ["tom", "triage", 1],
    ["mallory", "none", 1],
    ["helper-bot[bot]", "bot not in bots.allowed", 0],
  ])("%s (%s): /locus run and the queued label dispatch nothing", async (login, _kind, replies) => {
    const issue = await newIssue(h, `From ${login}`);
    const before = (await commentsOf(h, issue)).length;
    await postComment(login, issue, "/locus run");
    await h.settle();
    await label(login, issue).catch(() => undefined);
    await h.settle();

    expect(runsOf(issue)).toHaveLength(0);
    expect(await labelsOf(h, issue)).not.toContain("locus:queued");
    const written = (await commentsOf(h, issue)).slice(before).filter((body) => !body.startsWith("/locus"));
    // At most one refusal per trigger; none at all for a bot.
    expect(written.length).toBeLessThanOrEqual(2 * replies);
    for (const body of written) expect(body).toContain("only takes work from people with write access");
  });
});
