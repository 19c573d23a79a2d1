/**
 * Preloaded into the bundled Action by a test (`NODE_OPTIONS=--import=<this file>`): appends one
 * JSON line per child process the Action's own process starts (program, arguments, working
 * directory) to the file named by LOCUS_TEST_PROCESS_LOG. Every way `node:child_process` starts a
 * program is wrapped, and the ES module bindings are synced so the bundle's imports see the wrappers.
 */
import childProcess from "node:child_process";
import { appendFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";

export interface StartedProcess {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

const log = process.env["LOCUS_TEST_PROCESS_LOG"];
const STARTERS = ["spawn", "spawnSync", "execFile", "execFileSync", "exec", "execSync", "fork"] as const;

function record(file: unknown, rest: readonly unknown[]): void {
  const args = Array.isArray(rest[0]) ? rest[0].map(String) : [];
  const options = rest.find(
    (value): value is { cwd?: unknown } =>
      value !== null && typeof value === "object" && !Array.isArray(value),
  );
  const cwd = typeof options?.cwd === "string" ? options.cwd : process.cwd();
  const started: StartedProcess = { file: String(file), args, cwd };
  appendFileSync(log ?? "", `${JSON.stringify(started)}\n`);
}

if (log) {
  const starters = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of STARTERS) {
    const original = starters[name];
    if (original === undefined) continue;
    starters[name] = function recorded(this: unknown, file: unknown, ...rest: unknown[]) {
      record(file, rest);
      return original.call(this, file, ...rest);
    };
  }
  syncBuiltinESMExports();
}
