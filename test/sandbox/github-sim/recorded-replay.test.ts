import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitHubSimulator } from "../../../sandbox/github-sim/index.ts";
import type { GitHubSimulator, RepoSeeder } from "../../../sandbox/github-sim/index.ts";
import { appJwt, git } from "./harness.ts";
import { headerDifferences, loadScenario, scenarioNames, shapeDifferences } from "./recorded-github.ts";
import type { RecordedExchange } from "./recorded-github.ts";

// Replays the exchanges `@octokit/fixtures` recorded against the real api.github.com on the routes Locus
// uses, and holds the simulator to GitHub's status codes, the headers Locus reads and the bodies' shapes.
// Each difference the simulator keeps is listed below and, with its reason, in sandbox/github-sim/README.md.

const OWNER = "octokit-fixture-org";
// The recordings were made with this user's personal access token.
const RECORDED_USER = "octokit-fixture-user-a";
const RECORDED_TOKEN = "0000000000000000000000000000000000000001";

interface Replay {
  // Puts the simulator in the state the recording assumes; returns replacements for the recording's
  // placeholders (normalised SHAs, repository ids) in request paths and bodies.
  seed: (sim: GitHubSimulator, workDir: string) => Promise<Record<string, string>>;
}

async function repoOf(
  sim: GitHubSimulator,
  name: string,
  files?: Record<string, string>,
): Promise<RepoSeeder> {
  const seeded = await sim.seed.repo(`${OWNER}/${name}`, files ? { files } : {});
  return seeded.collaborator(RECORDED_USER, "admin");
}

const replays: Record<string, Replay> = {
  labels: {
    async seed(sim) {
      const seeded = await repoOf(sim, "labels");
      // The repository starts with GitHub's default labels, as the recorded first listing shows.
      const defaults = loadScenario("labels")[0]?.response as {
        name: string;
        color: string;
        description: string;
      }[];
      for (const label of defaults)
        seeded.label(label.name, { color: label.color, description: label.description });
      return {};
    },
  },
  errors: { seed: async (sim) => (await repoOf(sim, "errors"), {}) },
  "add-labels-to-issue": { seed: async (sim) => (await repoOf(sim, "add-labels-to-issue"), {}) },
  "get-repository": {
    seed: async (sim) => (await repoOf(sim, "hello-world", { "README.md": "# hello-world" }), {}),
  },
  // Same repository as get-repository (seeded there).
  "get-content": { seed: () => Promise.resolve({}) },
  "paginate-issues": {
    async seed(sim) {
      const seeded = await repoOf(sim, "paginate-issues");
      for (let index = 1; index <= 13; index += 1) await seeded.issue({ title: `Test issue ${index}` });
      // GitHub's Link header names the repository by id; Locus asks for pages by number on the route it
      // called, so the replay asks the simulator the same pages on that route.
      return { "/repositories/1000/": `/repos/${OWNER}/paginate-issues/` };
    },
  },
  "git-refs": {
    async seed(sim, workDir) {
      const seeded = await repoOf(sim, "git-refs", { "1.md": "# git-refs\ncreated with initial commit" });
      const clone = await mkdtemp(join(workDir, "git-refs-"));
      await git(workDir, ["clone", "--quiet", seeded.gitDir, clone]);
      const first = (await git(clone, ["rev-parse", "HEAD"])).trim();
      await git(clone, ["commit", "--quiet", "--allow-empty", "-m", "2nd commit"]);
      await git(clone, ["push", "--quiet", "origin", "HEAD:main"]);
      const second = (await git(clone, ["rev-parse", "HEAD"])).trim();
      // Placeholders are numbered in order of appearance: the first listing shows main at the 2nd commit.
      return {
        "0000000000000000000000000000000000000001": second,
        "0000000000000000000000000000000000000002": first,
      };
    },
  },
};

// Scenarios on routes Locus never calls, and why they are not replayed.
const notReplayed: Record<string, string> = {
  "add-and-remove-repository-collaborator":
    "collaborator invitations; Locus only reads a collaborator's permission",
  "branch-protection": "branch protection; Locus never reads or writes it",
  "create-file": "file writes through the contents API; Locus pushes with git",
  "create-status": "commit statuses; Locus reads check runs and workflow runs",
  "get-archive": "archive downloads; the Action checks out with git",
  "get-organization": "organisations are not simulated and Locus never reads one",
  "get-root": "the API root; Locus never reads it",
  "lock-issue": "issue locking; Locus never locks issues",
  "mark-notifications-as-read": "notifications; Locus never reads them",
  markdown: "markdown rendering; Locus never renders through the API",
  "project-cards": "classic projects; Locus never uses them",
  "release-assets": "releases; Locus never uses them",
  "release-assets-conflict": "releases; Locus never uses them",
  "rename-repository": "repository renames and redirects; Locus never renames",
  "search-issues": "search; Locus lists issues instead",
};

interface Known {
  scenarios: string[];
  difference: RegExp;
}

// Differences the simulator keeps on purpose; each has a row in the README's table saying why.
const known: Known[] = [
  {
    scenarios: ["labels", "add-labels-to-issue", "git-refs"],
    difference: /^(POST|PATCH) \S+ header etag: missing in the simulator$/,
  },
  {
    scenarios: ["errors"],
    difference: /^POST \S+ body\.status: not sent by GitHub$/,
  },
  {
    scenarios: ["add-labels-to-issue", "get-repository", "paginate-issues"],
    difference: /\.user_view_type: not sent by GitHub$/,
  },
  {
    scenarios: ["get-repository"],
    difference: /^GET \S+ body\.(has_discussions|custom_properties): not sent by GitHub$/,
  },
  {
    scenarios: ["add-labels-to-issue", "paginate-issues"],
    difference: /^(POST|GET) \S+ body(\[\])?\.draft: not sent by GitHub$/,
  },
  {
    scenarios: ["paginate-issues"],
    difference: /^GET \S+ body\[\]\.closed_by: not sent by GitHub$/,
  },
  {
    scenarios: ["paginate-issues"],
    difference:
      /^GET \S+ header link: rel \w+ points at \/repositories\/1000\/issues on GitHub, \/repos\/octokit-fixture-org\/paginate-issues\/issues in the simulator$/,
  },
  {
    scenarios: ["get-repository"],
    difference: /^GET \S+ body\.topics: 3 items on GitHub, 0 in the simulator$/,
  },
  {
    scenarios: ["get-repository"],
    difference: /^GET \S+ body\.(organization|temp_clone_token): missing in the simulator$/,
  },
  {
    scenarios: ["git-refs"],
    difference: /^GET \S+\/git\/refs\/ status: 200 on GitHub, 404 in the simulator$/,
  },
];

function substitute(text: string, replacements: Record<string, string>): string {
  let result = text;
  for (const [placeholder, value] of Object.entries(replacements))
    result = result.split(placeholder).join(value);
  return result;
}

async function replay(
  sim: GitHubSimulator,
  exchange: RecordedExchange,
  replacements: Record<string, string>,
  authorization: string,
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const headers: Record<string, string> = { authorization };
  for (const [name, value] of Object.entries(exchange.reqheaders)) {
    if (!["host", "content-length", "authorization"].includes(name)) headers[name] = String(value);
  }
  const hasBody = exchange.body !== "" && exchange.body !== undefined;
  const raw = typeof exchange.body === "string" ? exchange.body : JSON.stringify(exchange.body);
  const response = await fetch(`${sim.apiUrl}${substitute(exchange.path, replacements)}`, {
    method: exchange.method.toUpperCase(),
    headers,
    ...(hasBody ? { body: substitute(raw, replacements) } : {}),
  });
  const text = await response.text();
  const json = (response.headers.get("content-type") ?? "").startsWith("application/json");
  return {
    status: response.status,
    headers: response.headers,
    body: json && text !== "" ? JSON.parse(text) : text,
  };
}

function differencesOf(exchange: RecordedExchange, answer: Awaited<ReturnType<typeof replay>>): string[] {
  // Headers and body are compared only when both sides answered the same way; otherwise the status says it all.
  if (answer.status !== exchange.status)
    return [`status: ${exchange.status} on GitHub, ${answer.status} in the simulator`];
  return [
    ...headerDifferences(exchange.headers, answer.headers),
    ...shapeDifferences(exchange.response, answer.body),
  ];
}

it("decides about every recorded scenario: replayed, or not with a reason", () => {
  const decided = [...Object.keys(replays), ...Object.keys(notReplayed)].sort();
  expect(decided).toEqual(scenarioNames());
});

// The recordings were made with a personal access token; Locus calls with installation tokens. Both are
// replayed: the answers' shapes must not depend on the kind of token.
const credentials: Record<string, (sim: GitHubSimulator) => Promise<string>> = {
  "the recording's personal access token": () => Promise.resolve(`token ${RECORDED_TOKEN}`),
  "an installation token narrowed to what the scenarios need": async (sim) => {
    const installation = sim.seed.installation(OWNER);
    const response = await fetch(`${sim.apiUrl}/app/installations/${installation.id}/access_tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${appJwt(sim.app.id, sim.appPrivateKey ?? "")}` },
      body: JSON.stringify({ permissions: { issues: "write", contents: "write", metadata: "read" } }),
    });
    if (response.status !== 201) throw new Error(`installation token: ${response.status}`);
    return `token ${((await response.json()) as { token: string }).token}`;
  },
};

describe.each(Object.entries(credentials))(
  "the simulator replays what api.github.com answered, with %s",
  (kind, credential) => {
    let sim: GitHubSimulator;
    let workDir: string;
    let authorization: string;
    const found = new Map<string, string[]>();
    let requests = 0;

    beforeAll(async () => {
      workDir = await mkdtemp(join(tmpdir(), "recorded-replay-"));
      sim = await startGitHubSimulator({
        delay: () => Promise.resolve(),
        personalAccessTokens: { [RECORDED_TOKEN]: RECORDED_USER },
      });
      authorization = await credential(sim);
    });
    afterAll(async () => {
      await sim.close();
      await rm(workDir, { recursive: true, force: true });
    });

    for (const [scenario, { seed }] of Object.entries(replays)) {
      it(`replays ${scenario}`, async () => {
        const replacements = await seed(sim, workDir);
        const seen = new Set<string>();
        for (const exchange of loadScenario(scenario)) {
          const answer = await replay(sim, exchange, replacements, authorization);
          requests += 1;
          for (const difference of differencesOf(exchange, answer))
            seen.add(`${exchange.method.toUpperCase()} ${exchange.path.replace(/\?.*/, "")} ${difference}`);
        }
        const differences = [...seen];
        found.set(scenario, differences);
        const unexplained = differences.filter(
          (difference) =>
            !known.some((entry) => entry.scenarios.includes(scenario) && entry.difference.test(difference)),
        );
        expect(unexplained).toEqual([]);
      });
    }

    it("lists no difference that no longer occurs, and the README gives each one's reason", () => {
      const readme = readFileSync(join(import.meta.dirname, "../../../sandbox/github-sim/README.md"), "utf8");
      for (const entry of known) {
        for (const scenario of entry.scenarios) {
          const seen = found.get(scenario) ?? [];
          expect(
            seen.some((difference) => entry.difference.test(difference)),
            `${scenario} ${entry.difference}`,
          ).toBe(true);
        }
        const row = entry.scenarios.join(", ").replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
        expect(readme).toMatch(new RegExp(`^\\| ${row} +\\|`, "m"));
      }
      console.log(
        `with ${kind}: replayed ${found.size} recorded scenarios (${requests} requests); ${known.length} known differences`,
      );
    });
  },
);

// The comparison decides what counts as a difference, so it must itself be shown to find them.
describe("the recorded-exchange comparison", () => {
  it("finds missing, extra and retyped fields at any depth, ignoring values", () => {
    const recorded = { id: 1, user: { login: "a", site_admin: false }, labels: [{ name: "x" }], body: null };
    expect(
      shapeDifferences(recorded, { ...recorded, id: 99, user: { login: "b", site_admin: true } }),
    ).toEqual([]);
    expect(
      shapeDifferences(recorded, {
        id: "1",
        user: { login: "a" },
        labels: [{ name: "x", color: "fff" }, { name: "y" }],
        body: null,
        extra: true,
      }),
    ).toEqual([
      "body.id: number on GitHub, string in the simulator",
      "body.user.site_admin: missing in the simulator",
      "body.labels: 1 items on GitHub, 2 in the simulator",
      "body.labels[].color: not sent by GitHub",
      "body.extra: not sent by GitHub",
    ]);
  });

  it("checks the headers Locus reads: presence, integer form, rate-limit bucket and Link relations", () => {
    const recorded = {
      etag: '"abc"',
      "x-ratelimit-remaining": "4999",
      "x-ratelimit-resource": "core",
      link: '<https://api.github.com/repos/o/r/issues?per_page=3&page=2>; rel="next", <https://api.github.com/repos/o/r/issues?per_page=3&page=5>; rel="last"',
    };
    const same = new Headers({
      etag: 'W/"def"',
      "x-ratelimit-remaining": "12",
      "x-ratelimit-resource": "core",
      link: '<http://127.0.0.1:1/api/v3/repos/o/r/issues?page=2&per_page=3>; rel="next", <http://127.0.0.1:1/api/v3/repos/o/r/issues?page=5&per_page=3>; rel="last"',
    });
    expect(headerDifferences(recorded, same)).toEqual([]);
    const different = new Headers({
      "x-ratelimit-remaining": "many",
      "x-ratelimit-resource": "graphql",
      "retry-after": "60",
      link: '<http://127.0.0.1:1/api/v3/repos/o/r/issues?page=3&per_page=3>; rel="next"',
    });
    expect(headerDifferences(recorded, different)).toEqual([
      "header etag: missing in the simulator",
      "header link: rels next,last on GitHub, next in the simulator",
      "header link: rel next asks page=2&per_page=3 on GitHub, page=3&per_page=3 in the simulator",
      "header retry-after: not sent by GitHub",
      'header x-ratelimit-remaining: "many" is not an integer',
      "header x-ratelimit-resource: core on GitHub, graphql in the simulator",
    ]);
  });
});
