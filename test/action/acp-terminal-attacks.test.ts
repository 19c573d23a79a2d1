/**
 * An ACP agent cannot pick the host directories its terminals see, through the bundled Action:
 * the scripted ACP agent, installed on the runner's PATH and run in the sandbox, asks for
 * terminals below a `.git` file naming the runner's home or temp, in those directories, through
 * links to them, out of the worktree with `..`, and on a path flipped between absent, a directory
 * and a link to the runner's temp while it asks (terminal-attack.ts). Every command tries to read
 * a canary there and to leave a file there. The sandbox binds the worktree root whatever the
 * agent asks, and the requested directory is only where the command starts, checked to lie
 * inside: the canary reaches nothing Locus publishes, no file appears, each refusal reaches the
 * agent, and the run delivers the agent's work.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { installFixture } from "../lib/sandbox/fixtures/install-fixture.ts";
import { RACE_TRIES } from "../lib/agent/runners/fixtures/terminal-attack.ts";
import { describeWithSandbox } from "../needs-bubblewrap.ts";
import { publishedBy, startHarness, type ActionRun, type Harness } from "./harness.ts";
import { outsideTheRule, recording, startedProcesses } from "./host-processes.ts";
import type { StartedProcess } from "./record-processes.ts";

const AGENT = join(import.meta.dirname, "..", "lib", "agent", "runners", "fixtures", "scripted-acp-agent.ts");
const CANARIES = {
  home: "canary-runner-home-5d1e9b",
  temp: "canary-runner-temp-a8c3f0",
} as const;

interface Outcome {
  readonly output?: string;
  readonly exitCode?: number | null;
  readonly refused?: string;
}

let h: Harness;
let base: string;
let home: string;
let runnerTemp: string;
let bin: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-acp-terminal-attacks-"));
  // The runner's home and temp, as the Action sees them, each with something to steal.
  home = join(base, "home");
  runnerTemp = join(base, "work", "_temp");
  await mkdir(home, { recursive: true });
  await mkdir(runnerTemp, { recursive: true });
  await writeFile(join(home, "canary.txt"), `${CANARIES.home}\n`);
  await writeFile(join(runnerTemp, "canary.txt"), `${CANARIES.temp}\n`);
  // Installed on the runner's PATH as a user installs an npm package: the sandbox mounts it.
  bin = await installFixture(join(base, "tools"), "scripted-acp-agent", AGENT);
  h = await startHarness();
  const command = JSON.stringify(["scripted-acp-agent", "terminal-attack", "/dev/null", runnerTemp, home]);
  await h.git(["checkout", "--quiet", "-B", "configs", "origin/main"]);
  await writeFile(
    join(h.scratch, "acp-attack.yml"),
    `version: 3\nagent:\n  provider: acp\n  acp:\n    command: ${command}\n`,
  );
  await h.git(["add", "acp-attack.yml"]);
  await h.git(["commit", "--quiet", "-m", "config: the attacking ACP agent"]);
  await h.git(["push", "--quiet", "origin", "configs:main"]);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await rm(base, { recursive: true, force: true });
});

describeWithSandbox("an ACP agent's terminals, through the bundled Action", () => {
  let run: ActionRun;
  let report: Record<string, Outcome | number>;
  let issue: number;
  let started: StartedProcess[];

  beforeAll(async () => {
    issue = (await h.api.createIssue({ title: "Terminals", body: "x", labels: ["locus:queued"] })).number;
    run = await h.run(
      { mode: "issue", issue: String(issue), "config-path": "acp-attack.yml" },
      {
        HOME: home,
        RUNNER_TEMP: runnerTemp,
        PATH: `${bin}:${process.env["PATH"] ?? ""}`,
        ...(await recording(join(base, "processes.jsonl"))),
      },
    );
    started = await startedProcesses(join(base, "processes.jsonl"));
    report = JSON.parse(await h.show(`locus/issue-${issue}`, "terminal-attack.json")) as typeof report;
  }, 120_000);

  const outcome = (key: string): Outcome => report[key] as Outcome;

  it("delivers the agent's work, its report of every terminal among it, and none of the planted .git files", async () => {
    expect(run.outputs["status"]).toBe("succeeded");
    expect(Object.keys(report)).toEqual(expect.arrayContaining(["gitdir-0", "gitdir-1", "race-49"]));
    const tree = await h.git(["ls-tree", "-r", "--name-only", `origin/locus/issue-${issue}`]);
    expect(tree).toContain("terminal-attack.json");
    expect(tree).not.toContain("gitdir-");
  });

  it("never shows a host directory a .git file below the worktree names", () => {
    for (const key of ["gitdir-0", "gitdir-1"]) {
      // The command ran, in the sandbox, where the host directory does not exist.
      expect(outcome(key).output).toContain("attempted");
      expect(outcome(key).output).toContain("No such file or directory");
    }
  });

  it("refuses a directory outside the worktree, a link leading out and `..`, and tells the agent why", () => {
    for (const key of ["outside-0", "outside-1", "link-0", "link-1", "dotdot"]) {
      expect(outcome(key).refused, key).toMatch(/not a directory inside the worktree/);
      expect(outcome(key).output, key).toBeUndefined();
    }
    expect(run.stdout).toMatch(/Refused `cat .*canary\.txt/);
  });

  it("loses every try of the race: a flipped path leads nowhere the sandbox does not already show", () => {
    expect(Number(report["raceRan"]) + Number(report["raceRefused"])).toBe(RACE_TRIES);
    const flips = Number(/flipped (\d+) times/.exec(outcome("flipper").output ?? "")?.[1] ?? 0);
    expect(flips).toBeGreaterThan(0);
    for (let n = 0; n < RACE_TRIES; n += 1) {
      const tried = outcome(`race-${n}`);
      if (tried.refused !== undefined) expect(tried.refused).toMatch(/not a directory inside the worktree/);
    }
  });

  it("leaves no file in the runner's home or temp, and the canaries reach nothing Locus publishes", async () => {
    for (const dir of [home, runnerTemp])
      expect((await readdir(dir)).filter((name) => name.startsWith("planted-"))).toEqual([]);
    const everything = `${publishedBy(h, run)}\n${await h.git(["log", "-p", "--all", "--format=%H %s%n%b"])}`;
    expect(everything).toContain("attempted");
    for (const canary of Object.values(CANARIES)) expect(everything).not.toContain(canary);
  });

  it("starts the agent and every terminal in the sandbox: on the host only bubblewrap and Locus's own git", () => {
    expect(outsideTheRule(started, runnerTemp)).toEqual([]);
    expect(started.filter((p) => p.file.endsWith("bwrap")).length).toBeGreaterThan(1);
  });
});
