/**
 * Four projects, one run: `npm test` runs them all (one report, which
 * `.ci/run` reads); `npm run test:unit` only the fast in-process ones.
 *
 * - unit: `test/lib`, `test/scripts` and the Anthropic fake: pure rules and
 *   adapters in process, on the typed fake gateway (`test/fakes/`) or real git.
 *   A file that starts the GitHub simulator or a task world (test/fakes/task-world.ts:
 *   a mode's whole run in process, with real git and the sandbox) runs under integration instead,
 *   and a long property-based one under property, wherever it lives, so the
 *   unit project stays fast.
 * - property: every `*.property.test.ts` file: thousands of generated inputs
 *   per property (the published-text check publishes 10,000 documents), tens
 *   of seconds of CPU each. A property cheap enough to run in a second or two
 *   stays beside its examples in the unit project.
 * - e2e: every file that runs the bundled Action (or the app) as a child
 *   process; the global setup bundles the Action once for all of them.
 * - integration: everything else (the app in process behind its real HTTP
 *   server, the simulator's own tests, the other reliability checks). It is
 *   defined as "none of the others", so a new test file always runs.
 *
 * Most of a scenario test's time is spent waiting on a child process, git or
 * a loopback socket, not on this process's CPU, so files run four at a time
 * even on two cores (vitest's default there would be one at a time). The unit
 * files are the other way round, busy on the CPU, so `npm run test:unit` runs
 * one worker per core (`--maxWorkers=100%`): each extra worker imports and
 * warms up the same code again, which on two cores cost a quarter of the CPU.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * A call that starts the simulator (an HTTP server, a store, a GraphQL schema) or a task world (a
 * bare remote, real git and the sandbox for a mode's whole run): seconds per test, not milliseconds.
 */
const STARTS_WORLD = /\bstart(GitHubSimulator|TestSim|TaskWorld|PullRequestWorld)\(/;

/** The long property-based test files, wherever they live: seconds of CPU each, not milliseconds. */
export const PROPERTY = ["test/**/*.property.test.ts"];
const PROPERTY_SUFFIX = ".property.test.ts";

/** The test files under `folder`, relative to the repository, that start no simulator or world and are no long property test. */
function inProcessTestFilesOf(folder: string): string[] {
  const files = readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".test.ts") && !name.endsWith(PROPERTY_SUFFIX))
    .map((name) => join(folder, name));
  const startsWorld = (file: string) => STARTS_WORLD.test(readFileSync(join(root, file), "utf8"));
  return files.filter((file) => !startsWorld(file));
}

/**
 * The unit project, file by file: every test file of these folders that starts
 * no simulator or task world (those run under integration). Read afresh on each run, so a new file lands right.
 */
export const UNIT = ["test/lib", "test/scripts", "test/sandbox/anthropic-fake"].flatMap(inProcessTestFilesOf);

export const E2E = [
  "test/action/**/*.test.ts",
  "test/e2e/**/*.test.ts",
  "test/reliability/action-*.test.ts",
  "test/reliability/app-crash.test.ts",
  "test/reliability/git-hazards.test.ts",
  "test/reliability/stale-sweepers.test.ts",
];

/**
 * A scenario's time limit guards against a hang, not a slow machine: with four files at once on
 * two busy cores, a task that takes 5 s alone can take 30.
 */
const SCENARIO_TIMEOUTS = { testTimeout: 60_000, hookTimeout: 60_000 };

export default defineConfig({
  // Packages resolve as Node and the Action's bundle resolve them. Vite adds a `development`
  // condition, which loads micromark's family in its checking builds (an assertion on every token):
  // code Locus never ships, and about a sixth of the published-text property test's CPU.
  plugins: [
    {
      name: "locus:shipped-package-builds",
      configResolved(config) {
        const conditions = config.ssr.resolve?.conditions ?? [];
        const shipped = conditions.filter(
          (name) => name !== "development" && name !== "development|production",
        );
        conditions.splice(0, conditions.length, ...shipped);
      },
    },
  ],
  test: {
    setupFiles: ["test/setup.ts"],
    testTimeout: 20_000,
    reporters: ["default"],
    maxWorkers: 4,
    projects: [
      // Files of every project share a worker's module cache, so Probot, Octokit, the SDK and
      // the simulator's GraphQL schema (a second of CPU to build) load once per worker, not once
      // per file. So a test file mocks no module and leaves no global state behind (test/setup.ts
      // resets nock after each test; test/scripts/test-layers.test.ts checks the rest).
      { extends: true, test: { name: "unit", include: UNIT, isolate: false } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: [...UNIT, ...PROPERTY, ...E2E],
          isolate: false,
          ...SCENARIO_TIMEOUTS,
        },
      },
      // Pure CPU in process: each file sets its own time limit for its generated inputs.
      { extends: true, test: { name: "property", include: PROPERTY, isolate: false } },
      {
        extends: true,
        test: {
          name: "e2e",
          include: E2E,
          exclude: PROPERTY,
          globalSetup: ["test/global-setup.ts"],
          isolate: false,
          ...SCENARIO_TIMEOUTS,
        },
      },
    ],
  },
});
