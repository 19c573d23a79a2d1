import { describe, expect, it } from "vitest";
import { configSchema } from "../../../lib/config/index.ts";

function agentIssues(agent: unknown): string[] {
  const result = configSchema.safeParse({ agent });
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("agent.modelHost", () => {
  it("defaults to Anthropic's API", () => {
    expect(configSchema.parse({}).agent.modelHost).toBe("anthropic");
  });

  it("takes bedrock with a region and role, and vertex with a provider and project", () => {
    expect(
      agentIssues({
        modelHost: "bedrock",
        bedrock: { region: "us-east-1", roleArn: "arn:aws:iam::123456789012:role/locus" },
      }),
    ).toEqual([]);
    expect(
      agentIssues({
        modelHost: "vertex",
        vertex: {
          region: "us-east5",
          projectId: "acme",
          workloadIdentityProvider:
            "projects/42/locations/global/workloadIdentityPools/github/providers/locus",
          serviceAccount: "locus@acme.iam.gserviceaccount.com",
        },
      }),
    ).toEqual([]);
  });

  it("refuses a cloud host without its settings in one line naming what is missing", () => {
    expect(agentIssues({ modelHost: "bedrock" })).toEqual([
      "agent.bedrock: agent.modelHost bedrock needs agent.bedrock (region, roleArn)",
    ]);
    expect(agentIssues({ modelHost: "vertex" })).toEqual([
      "agent.vertex: agent.modelHost vertex needs agent.vertex (region, projectId, workloadIdentityProvider)",
    ]);
  });

  it("refuses a role that is not an IAM role ARN and a provider that is not a resource name", () => {
    expect(agentIssues({ modelHost: "bedrock", bedrock: { region: "us-east-1", roleArn: "locus" } })).toEqual(
      ["agent.bedrock.roleArn: expected an IAM role ARN"],
    );
    expect(
      agentIssues({
        modelHost: "vertex",
        vertex: { region: "us-east5", projectId: "acme", workloadIdentityProvider: "github" },
      }),
    ).toEqual([
      "agent.vertex.workloadIdentityProvider: expected projects/<number>/locations/global/workloadIdentityPools/<pool>/providers/<provider>",
    ]);
  });
});
