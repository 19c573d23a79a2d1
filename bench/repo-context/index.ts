/**
 * Issue item 4, repository context on the Linux kernel tree (bench/lib/kernel.ts): the agent's
 * `search_text` (ripgrep path and the pure-JS fallback) against `rg -n` itself, `list_files`
 * against `git ls-files`, and the prompt's repository context (file tree + log), all timed
 * interleaved with their baseline on a warm page cache. Patterns are ripgrep's own benchmark
 * suite's (`linux_literal_default`, `linux_re_literal_suffix`).
 */
import { spawn } from "node:child_process";
import { readRepositoryContext } from "../../lib/task/repository-context.ts";
import { listFilesTool } from "../../lib/agent/tools/list-files.ts";
import { createSearchTextTool } from "../../lib/agent/tools/search-text.ts";
import type { ToolContext } from "../../lib/agent/tool.ts";
import { createGitClient } from "../../lib/git/git-client.ts";
import { buildRepositoryContext } from "../../lib/prompt/task-prompt.ts";
import { GIT_ENV, kernelTree } from "../lib/kernel.ts";
import { atMost, sample, timePair, timeRuns } from "../lib/stats.ts";
import type { BenchContext, Benchmark, Figure, Skipped } from "../lib/types.ts";

const BENCH = "repo-context";
const PATTERNS = [
  { name: "literal PM_RESUME", pattern: "PM_RESUME", regex: false },
  { name: "regex [A-Z]+_RESUME", pattern: "[A-Z]+_RESUME", regex: true },
];

/** Runs a command to completion, output discarded: the baseline's own cost, nothing of ours. */
function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "ignore", "ignore"] });
    child.on("error", reject);
    // rg exits 1 when nothing matched; only a failure to run is an error here.
    child.on("close", (code) =>
      code === 0 || code === 1 ? resolve() : reject(new Error(`${command} exited ${code}`)),
    );
  });
}

function toolContext(cwd: string): ToolContext {
  return {
    cwd,
    signal: new AbortController().signal,
    shell: { allow: [], deny: [], timeoutSeconds: 60 },
    hooks: [],
    env: { PATH: process.env["PATH"] ?? "" },
    onQuestion: () => undefined,
  };
}

function versus(
  name: string,
  ours: number[],
  baselineName: string,
  baseline: number[],
  limit: number,
  goal: string,
): Figure {
  const value = sample(ours);
  const base = sample(baseline);
  const ratio = value.median / base.median;
  return {
    benchmark: BENCH,
    name,
    unit: "ms",
    value,
    baseline: { name: baselineName, value: base },
    ratio,
    goals: [atMost(goal, ratio, limit)],
  };
}

async function bench(ctx: BenchContext): Promise<(Figure | Skipped)[]> {
  const tree = await kernelTree(ctx.log);
  if (!tree.ok) return [{ benchmark: BENCH, skipped: tree.reason }];
  const cwd = tree.dir;
  const tools = toolContext(cwd);
  const figures: Figure[] = [];
  const repeats = ctx.repeats(5);
  for (const { name, pattern, regex } of PATTERNS) {
    const rg = () => run("rg", ["-n", ...(regex ? [] : ["-F"]), pattern], cwd);
    for (const mode of ["auto", "never"] as const) {
      const tool = createSearchTextTool({ ripgrep: mode });
      const search = async () => {
        const result = await tool.run({ pattern, regex }, tools);
        if (result.isError) throw new Error(result.content);
      };
      // The fallback reads 1.5 GB in JS; a few runs are enough to see where it stands.
      const [ours, base] = await timePair(mode === "never" ? Math.min(repeats, 3) : repeats, search, rg);
      ctx.log(
        `search_text ${mode} ${name}: ${Math.round(sample(ours).median)} ms vs rg ${Math.round(sample(base).median)} ms`,
      );
      figures.push(
        mode === "auto"
          ? versus(
              `search_text (ripgrep), ${name}${regex ? " (stops at 51 matches)" : ""}`,
              ours,
              "rg -n",
              base,
              2,
              "≤ 2× rg -n",
            )
          : versus(
              `search_text (JS fallback), ${name}${regex ? " (stops at 51 matches)" : ""}`,
              ours,
              "rg -n",
              base,
              4,
              "≤ 4× rg -n",
            ),
      );
    }
  }
  const [listed, lsFiles] = await timePair(
    repeats,
    () => listFilesTool.run({}, tools),
    () => run("git", ["ls-files"], cwd),
  );
  figures.push(versus("list_files (whole tree)", listed, "git ls-files", lsFiles, 2, "≤ 2× git ls-files"));
  // The same listing as the tool's (tracked and untracked, ignored left out): git's own cost
  // of the untracked walk, which plain `git ls-files` (the index alone) does not pay.
  const sameListing = ["ls-files", "--cached", "--others", "--exclude-standard"];
  const [listedAgain, lsOthers] = await timePair(
    repeats,
    () => listFilesTool.run({}, tools),
    () => run("git", sameListing, cwd),
  );
  figures.push({
    ...versus(
      "list_files (whole tree), against git's same listing",
      listedAgain,
      `git ${sameListing.join(" ")}`,
      lsOthers,
      2,
      "≤ 2× the same listing by git",
    ),
    note: "untracked files need git to walk the tree; plain git ls-files reads the index only",
  });
  const git = createGitClient({
    cwd,
    identity: { name: GIT_ENV.GIT_AUTHOR_NAME, email: GIT_ENV.GIT_AUTHOR_EMAIL },
    env: { PATH: process.env["PATH"], HOME: process.env["HOME"] },
  });
  const contextTimes = await timeRuns(repeats, async () =>
    buildRepositoryContext(await readRepositoryContext(git, "HEAD")),
  );
  const context = sample(contextTimes);
  figures.push({
    benchmark: BENCH,
    name: "prompt repository context (file tree + log)",
    unit: "ms",
    value: context,
    baseline: { name: "git ls-files", value: sample(lsFiles) },
    ratio: context.median / sample(lsFiles).median,
    goals: [atMost("≤ 1 s", context.median, 1000)],
  });
  return figures;
}

export const repoContextBenchmark: Benchmark = {
  name: BENCH,
  description: "search_text / list_files / prompt context on the Linux kernel vs rg -n and git ls-files",
  run: bench,
};
