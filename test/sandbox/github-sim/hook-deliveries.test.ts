/**
 * The app's webhook delivery log and redelivery, as GitHub serves them to the
 * app's JWT: every attempt recorded with the receiver's answer (0 when none
 * came), newest first in cursor pages, and a redelivery that re-sends the same
 * body under the same GUID. The harness checks every exchange against
 * GitHub's OpenAPI description.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appJwt, startTestSim, type TestSim } from "./harness.ts";

interface Received {
  readonly guid: string;
  readonly body: string;
}

/** Answers each delivery with the next scripted status; `drop` closes the connection unanswered. */
async function startReceiver(script: Array<number | "drop">) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        guid: String(req.headers["x-github-delivery"]),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const answer = script.shift() ?? 200;
      if (answer === "drop") req.socket.destroy();
      else res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface ListedDelivery {
  id: number;
  guid: string;
  status_code: number;
  status: string;
  event: string;
  action: string | null;
  redelivery: boolean;
  installation_id: number | null;
  repository_id: number | null;
}

describe("GET /app/hook/deliveries and POST …/attempts", () => {
  let t: TestSim;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let jwt: string;

  beforeEach(async () => {
    receiver = await startReceiver([200, 500, "drop"]);
    t = await startTestSim({ webhooks: { url: receiver.url, secret: "hook-secret" } });
    await t.sim.seed.repo("octo/demo");
    jwt = appJwt(t.sim.app.id, t.sim.appPrivateKey ?? "");
    const alice = t.client(t.sim.as("alice"));
    for (const title of ["answered 200", "answered 500", "no answer"]) {
      await alice.rest.issues.create({ owner: "octo", repo: "demo", title });
    }
    await t.sim.webhooks.drain();
  });
  afterEach(async () => {
    await t.close();
    await receiver.close();
  });

  async function list(query: Record<string, string | number> = {}) {
    const response = await t.client(jwt).request("GET /app/hook/deliveries", query);
    return { deliveries: response.data as ListedDelivery[], link: response.headers.link };
  }

  it("lists every attempt newest first with the receiver's status code, 0 when it never answered", async () => {
    const { deliveries } = await list();
    expect(deliveries.map((d) => [d.status_code, d.status])).toEqual([
      [0, "failed to connect to host"],
      [500, "Invalid HTTP Response: 500"],
      [200, "OK"],
    ]);
    const repository = t.sim.store.repos.values().next().value;
    expect(deliveries[0]).toMatchObject({
      guid: t.sim.webhooks.deliveries[2]?.id,
      event: "issues",
      action: "opened",
      redelivery: false,
      repository_id: repository?.id,
    });
    expect(deliveries[0]?.installation_id).toEqual(expect.any(Number));
    expect((await list({ status: "failure" })).deliveries.map((d) => d.status_code)).toEqual([0, 500]);
    expect((await list({ status: "success" })).deliveries.map((d) => d.status_code)).toEqual([200]);
  });

  it("pages by cursor, with only a next link", async () => {
    const first = await list({ per_page: 2 });
    expect(first.deliveries).toHaveLength(2);
    const cursor = /[?&]cursor=([^&>]+)/.exec(first.link ?? "")?.[1];
    expect(first.link).toMatch(/rel="next"$/);
    expect(cursor).toBe(`v1_${first.deliveries[1]?.id}`);
    const second = await list({ per_page: 2, cursor: cursor ?? "" });
    expect(second.deliveries.map((d) => d.id)).toEqual([first.deliveries[1]!.id - 1]);
    expect(second.link).toBeUndefined();
    await expect(list({ cursor: "bogus" })).rejects.toMatchObject({ status: 422 });
  });

  it("takes only the app's JWT", async () => {
    const token = t.client(t.sim.as("alice"));
    await expect(token.request("GET /app/hook/deliveries")).rejects.toMatchObject({ status: 401 });
  });

  it("redelivers the same body under the same GUID, listed as a redelivery", async () => {
    const failed = (await list({ status: "failure" })).deliveries[0];
    if (!failed) throw new Error("no failed delivery");
    const answer = await t.client(jwt).request("POST /app/hook/deliveries/{delivery_id}/attempts", {
      delivery_id: failed.id,
    });
    expect(answer.status).toBe(202);
    await t.sim.webhooks.drain();

    const original = receiver.received[2];
    const again = receiver.received[3];
    expect(again?.guid).toBe(failed.guid);
    expect(again?.body).toBe(original?.body);
    const newest = (await list()).deliveries[0];
    expect(newest).toMatchObject({ guid: failed.guid, redelivery: true, status_code: 200 });
    expect(newest?.id).toBeGreaterThan(failed.id);
    await expect(
      t.client(jwt).request("POST /app/hook/deliveries/{delivery_id}/attempts", { delivery_id: 999 }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
