/**
 * Issue item 5, git and start-up: a worktree of the kernel repository against a full clone of
 * it, commit + push to a local bare remote through Locus's git client against raw git, that
 * nothing is left behind, and the bundled Action's cold start to its first API call against a
 * bare `node -e ''`, plus the bundle's size.
 */
import { execFile, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cp, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createGitClient } from "../../lib/git/git-client.ts";
import { buildAction } from "../../scripts/build.ts";
import { GIT_ENV, kernelTree } from "../lib/kernel.ts";
import { atLeast, atMost, exact, holds, sample, timePair, timeRuns } from "../lib/stats.ts";
import type { BenchContext, Benchmark, Figure, Skipped } from "../lib/types.ts";

const BENCH = "git-startup";
const ROOT = join(import.meta.dirname, "..", "..");
const exec = promisify(execFile);
const env = { PATH: process.env["PATH"], HOME: process.env["HOME"] };
const identity = { name: GIT_ENV.GIT_AUTHOR_NAME, email: GIT_ENV.GIT_AUTHOR_EMAIL };
const git = (cwd: string, args: string[]) =>
  exec("git", args, { cwd, env: { ...process.env, ...GIT_ENV }, maxBuffer: 1 << 26 });

async function worktrees(ctx: BenchContext, scratch: string): Promise<(Figure | Skipped)[]> {
  const tree = await kernelTree(ctx.log);
  if (!tree.ok) return [{ benchmark: BENCH, skipped: tree.reason }];
  const client = createGitClient({ cwd: tree.dir, identity, env });
  let n = 0;
  const add = async () => {
    const path = join(scratch, `wt-${++n}`);
    await client.worktreeAdd(path, `bench/wt-${n}`, "HEAD");
    await client.worktreeRemove(path);
    await git(tree.dir, ["branch", "-D", `bench/wt-${n}`]);
  };
  const added = await timeRuns(ctx.repeats(3), add);
  // A full clone moves and re-indexes the whole 0.5 GB pack; once is enough to see the ratio.
  const cloned = await timeRuns(
    1,
    async () => {
      const path = join(scratch, "clone");
      await git(scratch, ["clone", "--quiet", "--no-local", tree.dir, path]);
      await rm(path, { recursive: true, force: true });
    },
    0,
  );
  const { stdout } = await git(tree.dir, ["worktree", "list", "--porcelain"]);
  const left = stdout.split("\n").filter((line) => line.startsWith("worktree ")).length - 1;
  const branches = (await git(tree.dir, ["branch", "--list", "bench/*"])).stdout.trim();
  const value = sample(added);
  const base = sample(cloned);
  return [
    {
      benchmark: BENCH,
      name: "worktree add + remove, kernel (78 k files)",
      unit: "ms",
      value,
      baseline: { name: "git clone --no-local", value: base },
      ratio: value.median / base.median,
      goals: [
        atLeast("≥ 10× faster than a clone", base.median / value.median, 10),
        atMost("≤ 1 s", value.median, 1000),
      ],
    },
    {
      benchmark: BENCH,
      name: "left behind after the runs: worktrees, branches, temp dirs",
      unit: "",
      value: exact(left + (branches ? branches.split("\n").length : 0) + (await readdir(scratch)).length),
      goals: [holds("nothing", left === 0 && branches === "" && (await readdir(scratch)).length === 0)],
    },
  ];
}

async function commitPush(ctx: BenchContext, scratch: string): Promise<Figure> {
  const remote = join(scratch, "remote.git");
  const work = join(scratch, "work");
  await git(scratch, ["init", "--quiet", "--bare", "-b", "main", remote]);
  await git(scratch, ["clone", "--quiet", remote, work]);
  await writeFile(join(work, "README.md"), "# bench\n");
  await git(work, ["add", "-A"]);
  await git(work, ["commit", "--quiet", "-m", "init"]);
  await git(work, ["push", "--quiet", "origin", "HEAD:main"]);
  const client = createGitClient({ cwd: work, identity, env });
  let n = 0;
  const ours = async () => {
    await writeFile(join(work, `file-${++n}.txt`), `change ${n}\n`);
    await client.stageAll();
    await client.commit(`change ${n}`);
    const pushed = await client.push("main");
    if (!pushed.ok) throw new Error(pushed.message);
  };
  const raw = async () => {
    await writeFile(join(work, `file-${++n}.txt`), `change ${n}\n`);
    await git(work, ["add", "-A"]);
    await git(work, ["commit", "--quiet", "-m", `change ${n}`]);
    await git(work, ["push", "--quiet", "origin", "HEAD:main"]);
  };
  const [a, b] = await timePair(ctx.repeats(5), ours, raw);
  const value = sample(a);
  return {
    benchmark: BENCH,
    name: "commit + push to a local bare remote (git client)",
    unit: "ms",
    value,
    baseline: { name: "raw git add/commit/push", value: sample(b) },
    ratio: value.median / sample(b).median,
    goals: [atMost("≤ 0.5 s", value.median, 500)],
  };
}

/** Milliseconds from spawning `entry` until its first request reaches a local GitHub stand-in. */
async function coldStart(entry: string, scratch: string): Promise<number> {
  let first: (() => void) | undefined;
  let reachedApi = false;
  const reached = new Promise<void>((resolve) => (first = resolve));
  const server = createServer((_req, res) => {
    reachedApi = true;
    first?.();
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    cwd: scratch,
    stdio: "ignore",
    env: {
      PATH: process.env["PATH"] ?? "",
      GITHUB_ACTIONS: "true",
      GITHUB_REPOSITORY: "acme/widgets",
      GITHUB_ACTOR: "alice",
      GITHUB_RUN_ID: "1",
      GITHUB_WORKSPACE: scratch,
      GITHUB_API_URL: api,
      GITHUB_GRAPHQL_URL: `${api}/graphql`,
      GITHUB_SERVER_URL: api,
      RUNNER_TEMP: scratch,
      INPUT_MODE: "issue",
      INPUT_ISSUE: "1",
      "INPUT_GITHUB-TOKEN": "ghs_bench",
      "INPUT_ANTHROPIC-API-KEY": "sk-ant-bench",
      INPUT_PROVIDER: "builtin",
      "INPUT_CONFIG-PATH": ".github/locus.yml",
    },
  });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  // An Action that dies before any API call must not hang the benchmark.
  await Promise.race([reached, exited]);
  const elapsed = performance.now() - started;
  child.kill("SIGKILL");
  await exited;
  server.close();
  if (!reachedApi) throw new Error(`the Action (${entry}) exited before calling the API`);
  return elapsed;
}

/**
 * The Action as it would start without a bundle: its sources and lockfile in a fresh directory,
 * `npm ci --omit=dev` there from the local npm cache (offline: the registry is not part of the
 * figure, so this is the fastest such an install gets), then the same start from the sources.
 */
async function installThenStart(scratch: string): Promise<number> {
  const dir = await mkdtemp(join(scratch, "install-"));
  try {
    for (const file of ["package.json", "package-lock.json", "action", "lib"]) {
      await cp(join(ROOT, file), join(dir, file), { recursive: true });
    }
    const started = performance.now();
    await exec(
      "npm",
      ["ci", "--offline", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      { cwd: dir, maxBuffer: 1 << 24 },
    );
    const installed = performance.now() - started;
    return installed + (await coldStart(join(dir, "action", "index.ts"), scratch));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function startup(ctx: BenchContext, scratch: string): Promise<(Figure | Skipped)[]> {
  const bundle = join(scratch, "action.js");
  await buildAction(bundle);
  const size = (await stat(bundle)).size / 2 ** 20;
  const bareNode = () => exec(process.execPath, ["-e", ""]);
  const starts: number[] = [];
  const [, nodeTimes] = await timePair(
    ctx.repeats(11),
    async () => starts.push(await coldStart(bundle, scratch)),
    bareNode,
  );
  const value = sample(starts.slice(1));
  const figures: (Figure | Skipped)[] = [
    {
      benchmark: BENCH,
      name: "bundled Action cold start to first API call",
      unit: "ms",
      value,
      baseline: { name: "node -e ''", value: sample(nodeTimes) },
      ratio: value.median / sample(nodeTimes).median,
      goals: [atMost("≤ 300 ms", value.median, 300)],
    },
    {
      benchmark: BENCH,
      name: "bundle size (dist/action.js as scripts/build.ts builds it)",
      unit: "MB",
      value: exact(Math.round(size * 100) / 100),
      goals: [atMost("≤ 3 MB", size, 3)],
    },
  ];
  // Interleaved with bundled starts of its own, so both see the same load.
  const bundled: number[] = [];
  const installs: number[] = [];
  try {
    for (let i = 0; i < ctx.repeats(3); i++) {
      installs.push(await installThenStart(scratch));
      bundled.push(await coldStart(bundle, scratch));
    }
  } catch (error) {
    figures.push({
      benchmark: BENCH,
      skipped: `install at run time: ${(error as Error).message.split("\n")[0] ?? ""} (npm ci --offline needs the packages in the npm cache, as after npm ci)`,
    });
    return figures;
  }
  const install = sample(installs);
  const fast = sample(bundled);
  ctx.log(`install then start ${Math.round(install.median)} ms vs bundled ${Math.round(fast.median)} ms`);
  figures.push({
    benchmark: BENCH,
    name: "bundled Action cold start, against installing its dependencies at run time",
    unit: "ms",
    value: fast,
    baseline: { name: "npm ci --offline --omit=dev, then start from the sources", value: install },
    ratio: fast.median / install.median,
    goals: [atLeast("≥ 20× faster", install.median / fast.median, 20)],
    note: "the install reads the local npm cache only; one from the registry is slower still",
  });
  return figures;
}

async function run(ctx: BenchContext): Promise<(Figure | Skipped)[]> {
  const scratch = await mkdtemp(join(tmpdir(), "locus-bench-git-"));
  const trees = join(scratch, "trees");
  try {
    await exec("mkdir", [trees]);
    return [
      ...(await worktrees(ctx, trees)),
      await commitPush(ctx, scratch),
      ...(await startup(ctx, scratch)),
    ];
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export const gitStartupBenchmark: Benchmark = {
  name: BENCH,
  description:
    "worktree vs clone of the kernel, commit + push, cleanup, bundled Action cold start, bundle size",
  run,
};
