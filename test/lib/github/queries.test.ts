import { validate } from "@octokit/graphql-schema";
import { describe, expect, it } from "vitest";
import { QUERIES } from "../../../lib/github/index.ts";

describe("GraphQL documents", () => {
  it("exports at least the milestone query", () => {
    expect(Object.keys(QUERIES)).toContain("MilestoneIssues");
  });

  it.each(Object.entries(QUERIES))("%s is valid against GitHub's schema", (_name, query) => {
    expect(validate(query).map((e) => e.message)).toEqual([]);
  });

  it("the validator does reject a document GitHub would refuse", () => {
    const broken = QUERIES.MilestoneIssues.replace("endCursor", "endCursorr");
    expect(validate(broken).length).toBeGreaterThan(0);
  });
});
