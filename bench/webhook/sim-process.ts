/**
 * GitHub for the intake benchmark, in its own process so that its work is not billed to the
 * app or the load generator: the simulator with one repository whose config file Locus reads,
 * the issues the deliveries name, and alice with write permission.
 */
import { startGitHubSimulator } from "../../sandbox/github-sim/index.ts";
import { servePeer } from "./ipc.ts";
import { OWNER, REPO, SLOW_ISSUES, type SimCounts, type SimReady } from "./shared.ts";

const sim = await startGitHubSimulator();
const repo = await sim.seed.repo(`${OWNER}/${REPO}`, {
  files: {
    "README.md": "# demo\n",
    ".github/workflows/locus.yml": "name: Locus\n",
    ".github/locus.yml": "{}\n",
  },
});
repo.collaborator("alice", "write");
// Issue 1 takes the labels Locus ignores; the others are queued, as a person's label leaves them.
const last = Math.max(...SLOW_ISSUES);
for (let n = 1; n <= last; n++) {
  await repo.issue({ title: `Task ${n}`, ...(n === 1 ? {} : { labels: ["locus:queued"] }) });
}

servePeer(
  {
    apiUrl: sim.apiUrl,
    appId: sim.app.id,
    privateKey: sim.appPrivateKey ?? "",
    installationId: sim.seed.installation(OWNER).id,
  } satisfies SimReady,
  {
    counts: (): SimCounts => ({
      calls: sim.requestLog.length,
      configReads: sim.requestLog.filter((e) => e.path.includes("/contents/")).length,
      dispatches: sim.requestLog.filter((e) => e.method === "POST" && e.path.endsWith("/dispatches")).length,
      refused: Object.fromEntries(
        Object.entries(
          Object.groupBy(
            sim.requestLog.filter((e) => e.status >= 400),
            (e) => String(e.status),
          ),
        ).map(([status, entries]) => [status, entries?.length ?? 0]),
      ),
    }),
    slow: (ms) => {
      sim.faults.clear();
      if (typeof ms === "number" && ms > 0) sim.faults.add({ kind: "latency", ms, path: "**" });
      return null;
    },
  },
);
