/** The machine a run came from: figures only mean something beside it (2 shared cores are noisy). */
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly git: string;
  readonly ripgrep: string | null;
  readonly commit: string;
}

export function describeMachine(): Machine {
  const first = cpus()[0];
  return {
    cpu: first?.model.trim() ?? "unknown",
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    git: tryRun("git", ["--version"]) ?? "absent",
    ripgrep: tryRun("rg", ["--version"])?.split("\n")[0] ?? null,
    commit: tryRun("git", ["rev-parse", "--short", "HEAD"]) ?? "unknown",
  };
}

/** 1-minute load average, rounded: other engineers' jobs share the machine. */
export function load(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

function tryRun(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}
