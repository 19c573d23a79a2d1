/**
 * The gateway's attachment download against the simulator over HTTP: with the run's token through
 * GitHub's redirect to the signed URL, refused to a token that cannot read the private repository,
 * stopped at the size cap, and never following a redirect the caller does not allow. The token
 * goes with the first request only: a redirect's target never sees it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mintInstallationToken } from "../../../sandbox/github-sim/app-auth.ts";
import type { GitHubGateway } from "../../../lib/github/index.ts";
import { startTestSim, type TestSim } from "../../sandbox/github-sim/harness.ts";
import { simulatorGateway } from "./helpers.ts";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

let t: TestSim;
let gateway: GitHubGateway;
let token: string;

beforeEach(async () => {
  t = await startTestSim();
  await t.sim.seed.repo("acme/widgets", { files: { "a.txt": "one\n" }, private: true });
  token = mintInstallationToken(t.sim.store, t.sim.seed.installation("acme").id).token;
  gateway = simulatorGateway({
    apiUrl: t.sim.apiUrl,
    token,
    repo: { owner: "acme", repo: "widgets" },
    ownLogins: [t.sim.app.botLogin],
  });
});
afterEach(() => t.close());

const anywhere = { maxBytes: 1_000, mayFollow: () => true };

describe("attachments.download", () => {
  it("follows GitHub's redirect to the signed URL and answers the bytes", async () => {
    const url = t.sim.attach("acme/widgets", PNG);

    const got = await gateway.attachments.download(url, anywhere);

    if (!got.ok) throw new Error(got.why);
    expect(Buffer.from(got.bytes).equals(PNG)).toBe(true);
  });

  it("answers why when the token cannot read the private repository", async () => {
    const url = t.sim.attach("acme/widgets", PNG);
    const stranger = simulatorGateway({
      apiUrl: t.sim.apiUrl,
      token: t.sim.as("stranger"),
      repo: { owner: "acme", repo: "widgets" },
      ownLogins: [],
    });

    const got = await stranger.attachments.download(url, anywhere);

    expect(got).toEqual({ ok: false, why: "GitHub answered 404: the run's token cannot read it" });
  });

  it("stops reading at the cap", async () => {
    const url = t.sim.attach("acme/widgets", Buffer.concat([PNG, Buffer.alloc(5_000)]));

    const got = await gateway.attachments.download(url, { ...anywhere, maxBytes: 1_000 });

    expect(got).toEqual({ ok: false, why: "it is over 1000 bytes", tooLarge: true });
  });

  it("never follows a redirect the caller does not allow", async () => {
    const url = t.sim.attach("acme/widgets", PNG);
    const followed: string[] = [];

    const got = await gateway.attachments.download(url, {
      maxBytes: 1_000,
      mayFollow: (target) => {
        followed.push(target);
        return false;
      },
    });

    expect(got.ok).toBe(false);
    expect(followed).toHaveLength(1);
    const path = new URL(url).pathname;
    expect(t.sim.requestLog.filter((entry) => entry.path === path).map((entry) => entry.status)).toEqual([
      302,
    ]);
  });
});

describe("the token on a redirect", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("goes with the first request and not to where it redirects", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const storage = await serve((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { "content-type": "image/png" });
      res.end(PNG);
    });
    const first: IncomingHttpHeaders[] = [];
    const github = await serve((req, res) => {
      first.push(req.headers);
      res.writeHead(302, { location: `${storage}/signed.png?sig=1` });
      res.end();
    });

    const got = await gateway.attachments.download(`${github}/user-attachments/assets/x`, anywhere);

    expect(got.ok).toBe(true);
    expect(first[0]?.authorization).toBe(`token ${token}`);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.authorization).toBeUndefined();
  });
});
