import nock from "nock";
import { describe, expect, it } from "vitest";
import { API, R, testGateway } from "./helpers.ts";
import { useNock } from "../../nock-scope.ts";

useNock();

const DEFS = [
  { name: "locus:queued", color: "0e8a16", description: "Queued for Locus" },
  { name: "locus:failed", color: "#D93F0B", description: "Locus failed" },
  { name: "agent:managed", color: "5319e7", description: "Managed by Locus" },
];

describe("ensureLabels", () => {
  it("lists once and creates only the missing labels", async () => {
    const { gateway } = testGateway();
    const scope = nock(API)
      .get(`${R}/labels`)
      .query({ per_page: 100, page: 1 })
      .reply(200, [
        { name: "locus:queued", color: "0e8a16", description: "Queued for Locus" },
        { name: "bug", color: "ff0000", description: null },
      ])
      .post(`${R}/labels`, { name: "locus:failed", color: "d93f0b", description: "Locus failed" })
      .reply(201, {})
      .post(`${R}/labels`, { name: "agent:managed", color: "5319e7", description: "Managed by Locus" })
      .reply(201, {});

    const result = await gateway.ensureLabels(DEFS);

    expect(result).toEqual({
      created: ["locus:failed", "agent:managed"],
      updated: [],
      unchanged: ["locus:queued"],
    });
    expect(scope.isDone()).toBe(true);
    expect(gateway.counter.snapshot().byRoute).toEqual({
      "GET /repos/{owner}/{repo}/labels": 1,
      "POST /repos/{owner}/{repo}/labels": 2,
    });
  });

  it("makes no write when every label exists as defined, whatever the case of name and colour", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/labels`)
      .query(true)
      .reply(200, [
        { name: "Locus:Queued", color: "0E8A16", description: "Queued for Locus" },
        { name: "locus:failed", color: "d93f0b", description: "Locus failed" },
        { name: "agent:managed", color: "5319e7", description: "Managed by Locus" },
      ]);

    const result = await gateway.ensureLabels(DEFS);

    expect(result.created).toEqual([]);
    expect(result.updated).toEqual([]);
    expect(gateway.counter.snapshot().writes).toBe(0);
  });

  it("updates colour and description of an existing Locus label that differs, keeping its name", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/labels`)
      .query(true)
      .reply(200, [
        { name: "locus:queued", color: "cccccc", description: "old" },
        { name: "locus:failed", color: "d93f0b", description: "Locus failed" },
        { name: "agent:managed", color: "5319e7", description: "Managed by Locus" },
      ])
      .patch(`${R}/labels/locus%3Aqueued`, { color: "0e8a16", description: "Queued for Locus" })
      .reply(200, {});

    const result = await gateway.ensureLabels(DEFS);

    expect(result).toEqual({
      created: [],
      updated: ["locus:queued"],
      unchanged: ["locus:failed", "agent:managed"],
    });
  });

  it("follows pagination when the repository has more than 100 labels", async () => {
    const { gateway } = testGateway();
    const many = Array.from({ length: 100 }, (_, i) => ({
      name: `other-${i}`,
      color: "000000",
      description: null,
    }));
    nock(API)
      .get(`${R}/labels`)
      .query({ per_page: 100, page: 1 })
      .reply(200, many, { link: `<${API}${R}/labels?per_page=100&page=2>; rel="next"` })
      .get(`${R}/labels`)
      .query({ per_page: 100, page: 2 })
      .reply(200, [{ name: "agent:managed", color: "5319e7", description: "Managed by Locus" }]);

    const result = await gateway.ensureLabels([DEFS[2]!]);

    expect(result.unchanged).toEqual(["agent:managed"]);
  });

  it("treats a label another replica created in the meantime as existing", async () => {
    const { gateway } = testGateway();
    nock(API)
      .get(`${R}/labels`)
      .query(true)
      .reply(200, [])
      .post(`${R}/labels`)
      .reply(422, {
        message: "Validation Failed",
        errors: [{ resource: "Label", code: "already_exists", field: "name" }],
      });

    const result = await gateway.ensureLabels([DEFS[0]!]);

    expect(result.created).toEqual(["locus:queued"]);
  });
});

describe("setLabels", () => {
  it("replaces the whole label set in exactly one PUT", async () => {
    const { gateway } = testGateway();
    nock(API)
      .put(`${R}/issues/7/labels`, { labels: ["locus:in-progress", "order:2", "agent:managed"] })
      .reply(200, [{ name: "locus:in-progress" }, { name: "order:2" }, { name: "agent:managed" }]);

    const names = await gateway.setLabels(7, ["locus:in-progress", "order:2", "agent:managed"]);

    expect(names).toEqual(["locus:in-progress", "order:2", "agent:managed"]);
    expect(gateway.counter.snapshot()).toMatchObject({
      total: 1,
      writes: 1,
      byRoute: { "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels": 1 },
    });
  });
});
