/**
 * The ACP terminal attack (acp-terminal-attacks.test.ts) keeps failing as it moves: on a retry
 * after a run whose agent crashed, on an iterate round on the task's PR, on a rebase whose
 * conflicts the agent resolves, and on a sprint's second task (acp-attack-variants.ts). In every
 * agent session the scripted ACP agent, in the sandbox, asks for terminals below `.git` files naming
 * the runner's home and temp, in them, through links to them and out of the worktree with `..`,
 * and races a flipping path a few times. The runner temp is the same path for every run, emptied
 * before each as a runner's is, so the agent can name it ahead. Each variant: the refusals reach
 * the agent, no file appears in the runner's home or temp, the canaries reach nothing Locus
 * publishes or pushes, nothing runs on the host but bubblewrap and Locus's own git, and the work
 * lands where it should.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { installFixture } from "../lib/sandbox/fixtures/install-fixture.ts";
import { describeWithSandbox } from "../needs-bubblewrap.ts";
import { ACP_ATTACK_VARIANTS, type AcpWorld, type TerminalOutcome } from "./acp-attack-variants.ts";
import { expectHostUntouched } from "./attack-variants.ts";
import { publishedBy, startHarness, type Harness } from "./harness.ts";

const AGENT = join(import.meta.dirname, "..", "lib", "agent", "runners", "fixtures", "scripted-acp-agent.ts");
const CANARIES = {
  home: "canary-runner-home-7b2f4e",
  temp: "canary-runner-temp-c91d06",
} as const;
/** The race, cut short: the fresh-issue test plays it in full. */
const RACE_TRIES = 5;

let h: Harness;
let base: string;
let home: string;
let world: AcpWorld;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "locus-acp-attack-variants-"));
  home = join(base, "home");
  const runnerTemp = join(base, "work", "_temp");
  await mkdir(home, { recursive: true });
  await writeFile(join(home, "canary.txt"), `${CANARIES.home}\n`);
  const bin = await installFixture(join(base, "tools"), "scripted-acp-agent", AGENT);
  h = await startHarness();
  const config = (end: "work" | "crash") => {
    const command = ["scripted-acp-agent", "terminal-attack-session", "/dev/null", end, String(RACE_TRIES)];
    return `version: 3\nagent:\n  provider: acp\n  acp:\n    command: ${JSON.stringify([...command, runnerTemp, home])}\n`;
  };
  await h.git(["checkout", "--quiet", "-B", "configs", "origin/main"]);
  await writeFile(join(h.scratch, "acp-attack.yml"), config("work"));
  await writeFile(join(h.scratch, "acp-attack-crash.yml"), config("crash"));
  await h.git(["add", "acp-attack.yml", "acp-attack-crash.yml"]);
  await h.git(["commit", "--quiet", "-m", "config: the attacking ACP agents"]);
  await h.git(["push", "--quiet", "origin", "configs:main"]);
  world = {
    h,
    dir: base,
    configPath: "acp-attack.yml",
    crashing: "acp-attack-crash.yml",
    runnerTemp,
    prepare: (temp) => writeFile(join(temp, "canary.txt"), `${CANARIES.temp}\n`),
    // Installed on the runner's PATH as a user installs an npm package: the sandbox mounts it.
    env: { HOME: home, PATH: `${bin}:${process.env["PATH"] ?? ""}` },
  };
}, 60_000);

afterAll(async () => {
  await h?.close();
  await rm(base, { recursive: true, force: true });
});

const planted = (names: readonly string[]) => names.filter((name) => name.startsWith("planted-"));

describeWithSandbox("an ACP agent's terminal attack, as it moves", () => {
  for (const variant of ACP_ATTACK_VARIANTS)
    it(`gets nothing in ${variant.name}`, async () => {
      const outcome = await variant.play(world);

      // Every session attacked, and its report came with the work.
      expect(outcome.reports).toHaveLength(variant.sessions);
      for (const report of outcome.reports) {
        const terminal = (key: string) => report[key] as TerminalOutcome;
        for (const key of ["gitdir-0", "gitdir-1"]) {
          // Ran in the sandbox, where the host directory the `.git` file names does not exist.
          expect(terminal(key).output, key).toContain("attempted");
          expect(terminal(key).output, key).toContain("No such file or directory");
        }
        for (const key of ["outside-0", "outside-1", "link-0", "link-1", "dotdot"]) {
          expect(terminal(key).refused, key).toMatch(/not a directory inside the worktree/);
          expect(terminal(key).output, key).toBeUndefined();
        }
        expect(Number(report["raceRan"]) + Number(report["raceRefused"])).toBe(RACE_TRIES);
      }
      expectHostUntouched(outcome);
      for (const run of outcome.runs) {
        expect(run.run.stdout).toMatch(/Refused `cat .*canary\.txt/);
        expect(planted(run.leftInRunnerTemp)).toEqual([]);
      }
      expect(planted(await readdir(home))).toEqual([]);
      expect(outcome.pushed.filter((path) => path.startsWith("gitdir-"))).toEqual([]);
      const log = await h.git(["log", "-p", "--all", "--format=%H %s%n%b"]);
      const everything = [...outcome.runs.map((run) => publishedBy(h, run.run)), log].join("\n");
      expect(everything).toContain("attempted");
      for (const canary of Object.values(CANARIES)) expect(everything).not.toContain(canary);
    }, 240_000);
});
