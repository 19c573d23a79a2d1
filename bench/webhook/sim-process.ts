/**
 * GitHub for the intake benchmark, in its own process so that its work is not billed to the
 * app or the load generator: the simulator with one repository whose config file Locus reads,
 * the issues the deliveries name, and alice with write permission.
 */
import { startGitHubSimulator } from "../../sandbox/github-sim/index.ts";
import { servePeer } from "./ipc.ts";
import { OWNER, REPO, SLOW_ISSUES, type SimCounts, type SimReady } from "./shared.ts";
import { callerWorkflowFiles } from "../../sandbox/world/caller-workflow.ts";

const sim = await startGitHubSimulator();
const repo = await sim.seed.repo(`${OWNER}/${REPO}`, {
  files: {
    "README.md": "# demo\n",
    ...callerWorkflowFiles(),
    ".github/locus.yml": "{}\n",
  },
});
repo.collaborator("alice", "write");
// Issue 1 takes the labels Locus ignores; the others are queued, as a person's label leaves them.
const last = Math.max(...SLOW_ISSUES);
for (let n = 1; n <= last; n++) {
  await repo.issue({ title: `Task ${n}`, ...(n === 1 ? {} : { labels: ["locus:queued"] }) });
}

/**
 * GETs of a path already read, of those the ones answered 304 (Not Modified), and the paths
 * read again in full most often.
 */
function rereads(): { rereads: number; notModified: number; readInFull: Record<string, number> } {
  const read = new Set<string>();
  const inFull = new Map<string, number>();
  let again = 0;
  let notModified = 0;
  for (const entry of sim.requestLog) {
    if (entry.method !== "GET" || (entry.status !== 200 && entry.status !== 304)) continue;
    if (read.has(entry.path)) {
      again += 1;
      if (entry.status === 304) notModified += 1;
      else inFull.set(entry.path, (inFull.get(entry.path) ?? 0) + 1);
    }
    read.add(entry.path);
  }
  const top = [...inFull].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return { rereads: again, notModified, readInFull: Object.fromEntries(top) };
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
      ...rereads(),
    }),
    slow: (ms) => {
      sim.faults.clear();
      if (typeof ms === "number" && ms > 0) sim.faults.add({ kind: "latency", ms, path: "**" });
      return null;
    },
    /**
     * The config file, the issues' reads and GraphQL answered 404 at once (or back to normal):
     * a queued issue's work stops at its status read, before any write, and costs GitHub nothing.
     */
    refuse: (on) => {
      sim.faults.clear();
      if (on !== true) return null;
      for (const path of ["/repos/*/*/contents/**", "/repos/*/*/issues/**"]) {
        sim.faults.add({ kind: "status", status: 404, method: "GET", path });
      }
      sim.faults.add({ kind: "status", status: 404, method: "POST", path: "/graphql" });
      return null;
    },
  },
);
