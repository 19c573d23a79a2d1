/**
 * A stand-in for a coding-agent CLI: a bash script in its own directory (put first on PATH) that
 * answers `--version`, records its arguments, stdin and environment, replays a recorded event
 * stream with `__CWD__` replaced by the worktree, and can then hang (to test abort) or fail.
 */
import { chmod, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FakeCli {
  readonly dir: string;
  readonly path: string;
  args(): Promise<string[]>;
  stdin(): Promise<string>;
  env(): Promise<string>;
  /** Pid of the `sleep` a hanging CLI started. */
  sleeperPid(): Promise<number>;
}

export interface FakeCliOptions {
  readonly name: string;
  readonly version: string;
  readonly fixture?: string;
  readonly cwd: string;
  readonly exitCode?: number;
  readonly stderr?: string;
  readonly hang?: boolean;
}

const FIXTURES = join(import.meta.dirname, "fixtures");

export async function installFakeCli(options: FakeCliOptions): Promise<FakeCli> {
  const dir = await mkdtemp(join(tmpdir(), `locus-fake-${options.name}-`));
  const stream = options.fixture
    ? (await readFile(join(FIXTURES, options.fixture), "utf8")).replaceAll("__CWD__", options.cwd)
    : "";
  await writeFile(join(dir, "stream.jsonl"), stream);
  const script = [
    "#!/usr/bin/env bash",
    `if [ "$1" = "--version" ]; then echo '${options.version}'; exit 0; fi`,
    `printf '%s\\0' "$@" > '${dir}/args'`,
    `cat > '${dir}/stdin'`,
    `env > '${dir}/env'`,
    // The sleeper starts before any output, so an abort triggered by an event always finds it.
    options.hang ? `sleep 30 & echo $! > '${dir}/sleep.pid'` : "",
    `cat '${dir}/stream.jsonl'`,
    options.hang ? "wait" : "",
    options.stderr ? `echo '${options.stderr}' >&2` : "",
    `exit ${options.exitCode ?? 0}`,
  ].join("\n");
  await writeFile(join(dir, options.name), `${script}\n`);
  await chmod(join(dir, options.name), 0o755);
  return {
    dir,
    path: `${dir}:${process.env["PATH"] ?? ""}`,
    args: async () => (await readFile(join(dir, "args"), "utf8")).split("\0").slice(0, -1),
    stdin: () => readFile(join(dir, "stdin"), "utf8"),
    env: () => readFile(join(dir, "env"), "utf8"),
    sleeperPid: async () => Number((await readFile(join(dir, "sleep.pid"), "utf8")).trim()),
  };
}

/** True when the process is gone (or only a zombie waiting to be reaped). */
export async function processGone(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}
