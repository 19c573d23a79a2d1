/**
 * GraphQL's primary rate limit on the simulator, by token kind as GitHub
 * documents it: a workflow's GITHUB_TOKEN has 1,000 points an hour per
 * repository, an installation 5,000 (more with many repositories or users, at
 * most 12,500), a person 5,000. A query costing more than is left is refused
 * with GitHub's RATE_LIMITED answer until the window resets, on the
 * simulator's clock. A GITHUB_TOKEN reaches only its own repository over
 * GraphQL too.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import { installationPoints } from "../../../sandbox/github-sim/graphql-budget.ts";
import { ACTIONS_BOT } from "../../../sandbox/github-sim/model.ts";
import { ensureUser } from "../../../sandbox/github-sim/store.ts";
import { startTestSim, type TestSim } from "./harness.ts";

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// 1 + 99 + 99·100 = 10,000 requests to fill: 100 points by GitHub's formula.
const HUNDRED_POINTS = `query { repository(owner: "acme", name: "widgets") {
  issues(first: 99) { nodes { comments(first: 100) { nodes { reactions(first: 100) { totalCount } } } } }
} rateLimit { limit remaining resetAt cost } }`;
const ONE_POINT = `query { viewer { login } rateLimit { limit remaining resetAt cost } }`;

interface Answer {
  headers: Headers;
  body: {
    data?: { rateLimit?: { limit: number; remaining: number; resetAt: string; cost: number } } | null;
    errors?: { type?: string; message: string }[];
  };
}

async function ask(token: string, query: string): Promise<Answer> {
  const response = await fetch(`${t?.sim.url}/graphql`, {
    method: "POST",
    headers: { authorization: `bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  expect(response.status).toBe(200);
  return { headers: response.headers, body: (await response.json()) as Answer["body"] };
}

/** A job's token for `repository`, as the run controller mints it (workflow-token.ts). */
function jobToken(repository: string): string {
  if (!t) throw new Error("no simulator");
  ensureUser(t.sim.store, ACTIONS_BOT, "Bot");
  const token = `ghs_job_${repository.replace("/", "_")}_${t.sim.store.tokens.size}`;
  t.sim.store.tokens.set(token, {
    token,
    kind: "workflow",
    login: ACTIONS_BOT,
    installationId: null,
    expiresAt: null,
    permissions: { contents: "read", issues: "write", metadata: "read" },
    repository,
  });
  return token;
}

describe("GraphQL points budgets by token kind", () => {
  it("an installation gets 50 more points per repository past 20 and per user past 20, at most 12,500", () => {
    expect(installationPoints(1, 0)).toBe(5000);
    expect(installationPoints(20, 20)).toBe(5000);
    expect(installationPoints(21, 0)).toBe(5000 + 21 * 50);
    expect(installationPoints(0, 30)).toBe(5000 + 30 * 50);
    expect(installationPoints(100, 100)).toBe(12_500);
  });

  it("refuses a GITHUB_TOKEN past 1,000 points in its repository's hour, and serves it again after the reset", async () => {
    let clock = new Date("2026-03-01T10:00:00Z");
    t = await startTestSim({ now: () => clock });
    await t.sim.seed.repo("acme/widgets");
    await t.sim.seed.repo("acme/other");
    const first = jobToken("acme/widgets");
    // Another job of the same repository draws on the same 1,000 points.
    const second = jobToken("acme/widgets");

    for (let i = 0; i < 9; i++) await ask(i % 2 === 0 ? first : second, HUNDRED_POINTS);
    const last = await ask(second, HUNDRED_POINTS);
    const reset = Math.floor(clock.getTime() / 1000) + 3600;
    expect(last.body.data?.rateLimit).toEqual({
      limit: 1000,
      remaining: 0,
      cost: 100,
      resetAt: new Date(reset * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    });

    const refused = await ask(first, ONE_POINT);
    expect(Object.keys(refused.body)).toEqual(["errors"]);
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors?.[0]?.type).toBe("RATE_LIMITED");
    expect(refused.body.errors?.[0]?.message).toMatch(/^API rate limit exceeded for /);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(refused.headers.get("x-ratelimit-reset")).toBe(String(reset));
    expect(refused.headers.get("x-ratelimit-resource")).toBe("graphql");

    // Another repository's job and a person have budgets of their own.
    expect((await ask(jobToken("acme/other"), ONE_POINT)).body.errors).toBeUndefined();
    const person = await ask(t.sim.as("octocat"), ONE_POINT);
    expect(person.body.data?.rateLimit).toMatchObject({ limit: 5000, remaining: 4999 });

    clock = new Date(clock.getTime() + 3599_000);
    expect((await ask(first, ONE_POINT)).body.errors?.[0]?.type).toBe("RATE_LIMITED");
    clock = new Date(reset * 1000);
    const again = await ask(first, ONE_POINT);
    expect(again.body.data?.rateLimit).toMatchObject({ limit: 1000, remaining: 999, cost: 1 });
  });

  it("refuses a query that costs more than is left, leaving what is left", async () => {
    t = await startTestSim();
    await t.sim.seed.repo("acme/widgets");
    const token = jobToken("acme/widgets");
    for (let i = 0; i < 9; i++) await ask(token, HUNDRED_POINTS);
    await ask(token, ONE_POINT);

    const refused = await ask(token, HUNDRED_POINTS);
    expect(refused.body.errors?.[0]?.type).toBe("RATE_LIMITED");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("99");
    expect((await ask(token, ONE_POINT)).body.data?.rateLimit).toMatchObject({ remaining: 98 });
  });

  it("gives an installation 5,000 points shared by its tokens", async () => {
    t = await startTestSim();
    await t.sim.seed.repo("acme/widgets");
    const installation = t.sim.seed.installation("acme");
    const one = mintInstallationToken(t.sim.store, installation.id).token;
    const two = mintInstallationToken(t.sim.store, installation.id).token;
    await ask(one, HUNDRED_POINTS);
    const answer = await ask(two, ONE_POINT);
    expect(answer.body.data?.rateLimit).toMatchObject({ limit: 5000, remaining: 4899 });
  });
});

describe("a GITHUB_TOKEN over GraphQL", () => {
  it("resolves nothing outside its own repository", async () => {
    t = await startTestSim();
    const widgets = await t.sim.seed.repo("acme/widgets");
    const other = await t.sim.seed.repo("acme/other");
    await widgets.issue({ title: "Ours" });
    await other.issue({ title: "Theirs" });
    const idOf = async (name: string): Promise<string> => {
      const answer = (
        await ask(
          t?.sim.as("acme") ?? "",
          `query { repository(owner: "acme", name: "${name}") { issue(number: 1) { id } } }`,
        )
      ).body as {
        data: { repository: { issue: { id: string } } };
      };
      return answer.data.repository.issue.id;
    };
    const ours = await idOf("widgets");
    const theirs = await idOf("other");
    const token = jobToken("acme/widgets");

    const own = await ask(
      token,
      `query { repository(owner: "acme", name: "widgets") { issue(number: 1) { title } } }`,
    );
    expect(own.body).toEqual({ data: { repository: { issue: { title: "Ours" } } } });
    const repository = await ask(
      token,
      `query { repository(owner: "acme", name: "other") { issue(number: 1) { title } } }`,
    );
    expect(repository.body.data).toEqual({ repository: null });
    expect(repository.body.errors).toMatchObject([
      { type: "NOT_FOUND", message: "Could not resolve to a Repository with the name 'acme/other'." },
    ]);
    const node = await ask(token, `query { node(id: "${theirs}") { id } }`);
    expect(node.body.errors).toMatchObject([
      { type: "NOT_FOUND", message: `Could not resolve to a node with the global id of '${theirs}'` },
    ]);
    const nodes = await ask(token, `query { nodes(ids: ["${ours}", "${theirs}"]) { id } }`);
    expect(nodes.body.data).toEqual({ nodes: [{ id: ours }, null] });
    const comment = await ask(
      token,
      `mutation { addComment(input: { subjectId: "${theirs}", body: "hi" }) { clientMutationId } }`,
    );
    expect(comment.body.errors).toMatchObject([{ type: "NOT_FOUND" }]);
  });
});
