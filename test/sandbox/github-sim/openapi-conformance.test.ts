import { describe, expect, it } from "vitest";
import type { Exchange } from "../../../sandbox/github-sim/index.ts";
import { createConformanceChecker, loadSpec } from "./openapi-conformance.ts";

function exchange(overrides: Partial<Exchange>): Exchange {
  return {
    requestId: "1",
    method: "GET",
    path: "/repos/octocat/hello/labels/bug",
    template: null,
    query: new URLSearchParams(),
    requestHeaders: {},
    requestBody: undefined,
    status: 200,
    responseHeaders: { "content-type": "application/json; charset=utf-8" },
    responseBody: {
      id: 1,
      node_id: "LA_1",
      url: "http://x/labels/bug",
      name: "bug",
      color: "ededed",
      default: false,
      description: null,
    },
    graphql: false,
    operationName: null,
    injected: false,
    ...overrides,
  };
}

// The checker guards every other test in this directory, so it must itself be shown to fail.
describe("OpenAPI conformance checker", () => {
  it("accepts a well-formed exchange and rejects unknown routes, parameters and shapes", () => {
    const checker = createConformanceChecker();
    checker.observe(exchange({}));
    expect(checker.violations).toEqual([]);
    checker.observe(exchange({ path: "/repos/octocat/hello/nonsense" }));
    checker.observe(exchange({ query: new URLSearchParams({ colour: "red" }) }));
    checker.observe(exchange({ responseBody: { name: "bug" } }));
    checker.observe(
      exchange({
        method: "POST",
        path: "/repos/octocat/hello/labels",
        status: 201,
        requestBody: { name: 7 },
      }),
    );
    expect(checker.violations).toHaveLength(4);
    expect(checker.violations[0]).toMatch(/no such operation/);
    expect(checker.violations[1]).toMatch(/unknown query parameter colour/);
    expect(checker.violations[2]).toMatch(/200 response invalid: .*required property 'id'/);
    expect(checker.violations[3]).toMatch(/request body invalid/);
    expect(() => checker.assertClean()).toThrow(/OpenAPI conformance violations/);
    console.log(
      `GitHub OpenAPI description loaded in ${Math.round(loadSpec().loadMs)} ms (once per process)`,
    );
  });
});
