/** `createLabel` as GitHub answers it: created by a writer, refused for a taken name or a reader. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestSim, type TestSim } from "./harness.ts";

const CREATE = `
  mutation CreateLabels($repository: ID!, $name: String!, $color: String!, $description: String) {
    l0: createLabel(input: { repositoryId: $repository, name: $name, color: $color, description: $description }) {
      label { id name color description }
    }
  }`;

interface Answer {
  data: {
    l0: { label: { id: string; name: string; color: string; description: string | null } } | null;
  } | null;
  errors?: { type?: string; message: string }[];
}

describe("createLabel", () => {
  let t: TestSim;
  let repositoryId: string;

  beforeEach(async () => {
    t = await startTestSim();
    const seeded = await t.sim.seed.repo("octocat/hello");
    seeded.collaborator("reader", "read");
    repositoryId = `R_${Buffer.from(`sim:${seeded.repo.id}`).toString("base64url")}`;
  });
  afterEach(() => t.close());

  async function create(as: string, name: string, color = "0e8a16"): Promise<Answer> {
    const response = await fetch(`${t.sim.url}/api/graphql`, {
      method: "POST",
      headers: { authorization: `bearer ${t.sim.as(as)}`, "content-type": "application/json" },
      body: JSON.stringify({
        query: CREATE,
        variables: { repository: repositoryId, name, color, description: "Doing it" },
      }),
    });
    return (await response.json()) as Answer;
  }

  it("creates the label, and a label the repository then lists by that id", async () => {
    const answer = await create("octocat", "locus:in-progress", "0E8A16");

    expect(answer.errors).toBeUndefined();
    expect(answer.data?.l0?.label).toMatchObject({
      name: "locus:in-progress",
      color: "0e8a16",
      description: "Doing it",
    });
    const listed = t.sim.store.repos
      .get("octocat/hello")
      ?.labels.find((label) => label.name === "locus:in-progress");
    expect(listed).toBeDefined();
    expect(answer.data?.l0?.label.id).toBe(`LA_${Buffer.from(`sim:${listed?.id}`).toString("base64url")}`);
  });

  it("refuses a name the repository has (any case), a bad colour, and a reader", async () => {
    await create("octocat", "locus:queued");

    const taken = await create("octocat", "LOCUS:QUEUED");
    const colour = await create("octocat", "locus:done", "#1a7f37");
    const reader = await create("reader", "locus:failed");

    expect(taken.errors?.[0]).toMatchObject({
      type: "UNPROCESSABLE",
      message: "Name has already been taken",
    });
    expect(taken.data?.l0).toBeNull();
    expect(colour.errors?.[0]?.type).toBe("UNPROCESSABLE");
    expect(reader.errors?.[0]?.type).toBe("FORBIDDEN");
  });
});
