/** The Action's side of the exchange: which token serves which request, and per-phase tokens refreshed before they expire. */
import { describe, expect, it } from "vitest";
import { createExchangeClient } from "../../../lib/token-exchange/exchange-client.ts";
import { runnerIdToken, takeIdTokenRequest } from "../../../lib/token-exchange/id-token.ts";
import { credentialFor } from "../../../lib/token-exchange/request-credential.ts";

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

describe("credentialFor", () => {
  it.each([
    ["GET", "/repos/{owner}/{repo}/issues/{issue_number}", undefined, "agent"],
    ["PUT", "/repos/{owner}/{repo}/issues/{issue_number}/labels", undefined, "agent"],
    ["PATCH", "/repos/{owner}/{repo}/issues/comments/{comment_id}", undefined, "agent"],
    ["POST", "/repos/{owner}/{repo}/pulls", undefined, "publish"],
    ["PATCH", "http://127.0.0.1:9/api/v3/repos/o/r/pulls/3", undefined, "publish"],
    ["POST", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", undefined, "publish"],
    ["DELETE", "/repos/{owner}/{repo}/git/refs/{ref}", undefined, "publish"],
    ["GET", "/repos/{owner}/{repo}/pulls/{pull_number}", undefined, "agent"],
    ["POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", undefined, "workflow"],
    ["GET", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs", undefined, "workflow"],
    ["POST", "/graphql", "query TaskIssue { repository { id } }", "agent"],
    ["POST", "/graphql", "mutation { addComment(input: {}) { clientMutationId } }", "agent"],
    ["POST", "/graphql", "mutation { r: resolveReviewThread(input: {}) { clientMutationId } }", "publish"],
    [
      "POST",
      "/graphql",
      "mutation { addPullRequestReviewThreadReply(input: {}) { comment { id } } }",
      "publish",
    ],
  ])("%s %s %s → %s", (method, url, query, expected) => {
    expect(credentialFor({ method, url, ...(query === undefined ? {} : { query }) })).toBe(expected);
  });
});

const BOT = { login: "acme-locus[bot]", id: 4242 };

describe("createExchangeClient", () => {
  function setup(lifetimeMs: number) {
    let now = Date.parse("2026-11-26T12:00:00Z");
    const sent: { phase: string; audience: string }[] = [];
    let audience = "";
    const client = createExchangeClient({
      appUrl: "https://locus.example/",
      idToken: (aud) => {
        audience = aud;
        return Promise.resolve("oidc-jwt");
      },
      now: () => new Date(now),
      log: quiet,
      fetch: (_url, init) => {
        const { phase } = JSON.parse(init?.body as string) as { phase: string };
        sent.push({ phase, audience });
        const body =
          phase === "publish" && sent.length > 5
            ? { error: "unknown-run", reason: "run 7 has finished" }
            : {
                token: `ghs_${phase}_${sent.length}`,
                expires_at: new Date(now + lifetimeMs).toISOString(),
                bot: BOT,
              };
        return Promise.resolve(new Response(JSON.stringify(body), { status: "token" in body ? 200 : 403 }));
      },
    });
    return { client, sent, advance: (ms: number) => (now += ms) };
  }

  it("asks once per phase for the app's audience, shares a request in flight, and refreshes 5 minutes before expiry", async () => {
    const { client, sent, advance } = setup(60 * 60_000);
    const [a, b] = await Promise.all([client.token("agent"), client.token("agent")]);
    expect([a, b]).toEqual(["ghs_agent_1", "ghs_agent_1"]);
    expect(await client.token("publish")).toBe("ghs_publish_2");
    advance(54 * 60_000);
    expect(await client.token("agent")).toBe("ghs_agent_1");
    advance(2 * 60_000);
    expect(await client.token("agent")).toBe("ghs_agent_3");
    expect(sent).toEqual([
      { phase: "agent", audience: "https://locus.example" },
      { phase: "publish", audience: "https://locus.example" },
      { phase: "agent", audience: "https://locus.example" },
    ]);
  });

  it("learns from the app which bot its tokens act as, with the agent token it holds", async () => {
    const { client, sent } = setup(60 * 60_000);
    expect(await client.bot()).toEqual(BOT);
    await client.token("agent");
    expect(sent).toHaveLength(1);
  });

  it("refuses an answer that does not say which bot the token acts as", async () => {
    const client = createExchangeClient({
      appUrl: "https://locus.example",
      idToken: () => Promise.resolve("oidc-jwt"),
      now: () => new Date("2026-11-26T12:00:00Z"),
      log: quiet,
      fetch: () =>
        Promise.resolve(
          new Response(JSON.stringify({ token: "ghs_x", expires_at: "2026-11-26T13:00:00Z" }), {
            status: 200,
          }),
        ),
    });
    await expect(client.token("agent")).rejects.toThrow(/did not say which bot/);
  });

  it("says why the app refused, and asks again next time", async () => {
    const { client, sent } = setup(60_000);
    for (let i = 0; i < 5; i++) await client.token("agent");
    await expect(client.token("publish")).rejects.toThrow(
      /refused a publish token \(403 unknown-run\): run 7 has finished/,
    );
    await expect(client.token("publish")).rejects.toThrow(/refused/);
    expect(sent.filter((s) => s.phase === "publish")).toHaveLength(2);
  });
});

describe("runnerIdToken", () => {
  it("asks the runner's URL with its bearer token and the audience, as @actions/core does", async () => {
    let asked = "";
    let auth = "";
    const idToken = runnerIdToken(
      takeIdTokenRequest({
        ACTIONS_ID_TOKEN_REQUEST_URL: "http://runner/token?run=1",
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: "req",
      }),
      (url, init) => {
        asked = url as string;
        auth = new Headers(init?.headers).get("authorization") ?? "";
        return Promise.resolve(new Response(JSON.stringify({ value: "jwt" })));
      },
    );
    expect(await idToken("https://locus.example")).toBe("jwt");
    expect(asked).toBe("http://runner/token?run=1&audience=https%3A%2F%2Flocus.example");
    expect(auth).toBe("bearer req");
  });

  it("tells the user to grant id-token: write when the runner offers no token", async () => {
    await expect(runnerIdToken(takeIdTokenRequest({}))("aud")).rejects.toThrow(/id-token: write/);
  });

  it("is taken out of the environment it was found in", () => {
    const env: Record<string, string | undefined> = {
      ACTIONS_ID_TOKEN_REQUEST_URL: "http://runner/token?run=1",
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: "req",
      PATH: "/usr/bin",
    };
    expect(takeIdTokenRequest(env)).toEqual({ url: "http://runner/token?run=1", token: "req" });
    expect(env).toEqual({ PATH: "/usr/bin" });
  });
});
