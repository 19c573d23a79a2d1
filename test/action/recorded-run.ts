/**
 * One run of the bundled Action as an attack test wants it: every host process recorded
 * (host-processes.ts), a runner temp laid out as a runner's (its own, or the world's emptied),
 * GITHUB_ENV an empty file read back afterwards, what was left in the runner temp, and the model
 * requests of the run kept (the tool results show what the attacker's commands printed).
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RecordedRequest } from "../../sandbox/anthropic-fake/types.ts";
import type { ActionRun, Harness } from "./harness.ts";
import { recording, startedProcesses } from "./host-processes.ts";
import type { StartedProcess } from "./record-processes.ts";

/** Where the variants run: the harness, a directory for their files, and the config file to use. */
export interface VariantWorld {
  readonly h: Harness;
  readonly dir: string;
  readonly configPath?: string;
  /** More environment for every run (a credential, a PATH). */
  readonly env?: Record<string, string>;
  /**
   * One runner temp for every run, for an attack that must name it ahead (a runner's
   * `_work/_temp` is the same path each job), emptied before each run as a runner empties it.
   * Without it, each run has a runner temp of its own.
   */
  readonly runnerTemp?: string;
  /** Lays what the attack looks for in the emptied runner temp, before each run (a canary). */
  readonly prepare?: (runnerTemp: string) => Promise<void>;
}

export interface VariantRun {
  readonly run: ActionRun;
  readonly started: readonly StartedProcess[];
  readonly runnerTemp: string;
  /** The model requests of this run (tool results show what the attacker's commands printed). */
  readonly requests: readonly RecordedRequest[];
  /** What the run's GITHUB_ENV file holds afterwards. */
  readonly githubEnv: string;
  /** The names in the runner temp once the run ended (the next run may empty it). */
  readonly leftInRunnerTemp: readonly string[];
}

let runs = 0;

/** Runs the Action recorded, in a runner temp of its own, with an empty GITHUB_ENV. */
export async function recordedRun(world: VariantWorld, inputs: Record<string, string>): Promise<VariantRun> {
  runs += 1;
  const root = join(world.dir, `variant-run-${runs}`);
  // A runner's layout: the job's temp under its work directory, the file-command files in it.
  const runnerTemp = world.runnerTemp ?? join(root, "work", "_temp");
  const fileCommands = join(runnerTemp, "_runner_file_commands");
  await rm(root, { recursive: true, force: true });
  await rm(runnerTemp, { recursive: true, force: true });
  await mkdir(fileCommands, { recursive: true });
  await mkdir(root, { recursive: true });
  await world.prepare?.(runnerTemp);
  const githubEnv = join(fileCommands, "set_env_1");
  await writeFile(githubEnv, "");
  const from = world.h.fake.requests.length;
  const run = await world.h.run(
    { ...inputs, ...(world.configPath ? { "config-path": world.configPath } : {}) },
    {
      ...world.env,
      RUNNER_TEMP: runnerTemp,
      GITHUB_ENV: githubEnv,
      ...(await recording(join(root, "processes.jsonl"))),
    },
  );
  return {
    run,
    started: await startedProcesses(join(root, "processes.jsonl")),
    runnerTemp,
    requests: world.h.fake.requests.slice(from),
    githubEnv: await readFile(githubEnv, "utf8"),
    leftInRunnerTemp: await readdir(runnerTemp),
  };
}

/** Whether a run's model requests (the tool results the agent saw) contain `text`. */
export function agentSaw(run: VariantRun, text: string | RegExp): boolean {
  const seen = JSON.stringify(run.requests.map((request) => request.body));
  return typeof text === "string" ? seen.includes(text) : text.test(seen);
}
