/**
 * GitHub for the load benchmark, in its own process: INSTALLATIONS accounts, each with
 * REPOS_PER_INSTALLATION repositories (Locus config and workflow in each) and issues that alice
 * labels `locus:queued` while webhook sending is off. The parent takes those deliveries (GitHub's
 * own payloads, signed) and sends them itself at the pace it wants; this process records every
 * write the app makes, with its time and account, for the secondary-limit check.
 */
import { startGitHubSimulator } from "../../sandbox/github-sim/index.ts";
import type { RepoSeeder } from "../../sandbox/github-sim/index.ts";
import { servePeer } from "../webhook/ipc.ts";
import { SECRET } from "../webhook/shared.ts";
import {
  INSTALLATIONS,
  ISSUES_PER_REPO,
  REPOS_PER_INSTALLATION,
  type LoadDelivery,
  type LoadSimReady,
  type LoadSimReport,
  type Write,
} from "./load-shared.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

const writes: Write[] = [];
const sim = await startGitHubSimulator({
  webhooks: { secret: SECRET },
  observe: (exchange) => {
    if (exchange.method === "GET" || exchange.method === "HEAD") return;
    const owner = /^\/repos\/([^/]+)\//.exec(exchange.path)?.[1];
    if (owner) writes.push({ at: Date.now(), owner, method: exchange.method, path: exchange.path });
  },
});

const seeders: RepoSeeder[] = [];
for (let account = 1; account <= INSTALLATIONS; account++) {
  for (let r = 1; r <= REPOS_PER_INSTALLATION; r++) {
    const repo = await sim.seed.repo(`org-${account}/repo-${r}`, {
      files: {
        "README.md": "# load\n",
        ...callerWorkflowFiles(),
        ".github/locus.yml": "{}\n",
      },
    });
    repo.collaborator("alice", "write");
    seeders.push(repo);
  }
}

// Alice labels every issue while nothing is sent: the deliveries wait for the parent.
sim.webhooks.url = undefined;
const alice = sim.as("alice");
for (const seeder of seeders) {
  for (let n = 1; n <= ISSUES_PER_REPO; n++) {
    const issue = await seeder.issue({ title: `Task ${n}` });
    const response = await fetch(
      `${sim.apiUrl}/repos/${seeder.repo.owner}/${seeder.repo.name}/issues/${issue.number}/labels`,
      {
        method: "POST",
        headers: { authorization: `token ${alice}`, "content-type": "application/json" },
        body: JSON.stringify({ labels: ["locus:queued"] }),
      },
    );
    if (!response.ok) throw new Error(`labelling failed: ${response.status}`);
  }
}
await sim.webhooks.drain();
const deliveries: LoadDelivery[] = sim.webhooks.deliveries
  .filter((d) => d.event === "issues" && d.action === "labeled")
  .map((d) => ({ headers: d.headers, body: d.body }));
const setupWrites = writes.length;

servePeer(
  {
    apiUrl: sim.apiUrl,
    appId: sim.app.id,
    privateKey: sim.appPrivateKey ?? "",
    installationId: 0,
    deliveries,
  } satisfies LoadSimReady,
  {
    report: () => {
      const dispatches: Record<string, number> = {};
      for (const repo of sim.store.repos.values()) {
        for (const run of repo.runs) {
          const key = `${repo.owner}/${repo.name}#${run.inputs["issue"] ?? ""}`;
          dispatches[key] = (dispatches[key] ?? 0) + 1;
        }
      }
      const refused: Record<string, number> = {};
      for (const entry of sim.requestLog) {
        if (entry.status >= 400) refused[entry.status] = (refused[entry.status] ?? 0) + 1;
      }
      return { writes: writes.slice(setupWrites), dispatches, refused } satisfies LoadSimReport;
    },
  },
);
