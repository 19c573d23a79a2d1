/**
 * A stand-in for a coding-agent CLI: a bash script in its own directory (put first on PATH) that
 * answers `--version`, records its arguments, stdin and environment, replays a recorded event
 * stream with `__CWD__` replaced by the worktree, and can then hang (to test abort) or fail.
 * Like the real CLIs, it gives a structured answer only when asked for one: with `--json-schema`
 * (Claude Code) or `--output-schema <file>` (Codex, whose schema file it keeps for the test), the
 * fixture's `"__ANSWER_JSON__"` becomes `answer` and `"__ANSWER_TEXT__"` its JSON text; without,
 * null and a sentence. With `writes`, it first writes those files where it runs, as a real CLI's
 * edit tool would.
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
  /** The `--output-schema` file's content, as the CLI read it. */
  outputSchema(): Promise<string>;
}

export interface FakeCliOptions {
  readonly name: string;
  readonly version: string;
  readonly fixture?: string;
  readonly cwd: string;
  readonly exitCode?: number;
  readonly stderr?: string;
  readonly hang?: boolean;
  /** The structured answer the CLI gives when a run asks for one. */
  readonly answer?: unknown;
  /** Files the CLI writes in its working directory (path → content) before it answers, as an edit would. */
  readonly writes?: Readonly<Record<string, string>>;
}

const FIXTURES = join(import.meta.dirname, "fixtures");

export async function installFakeCli(options: FakeCliOptions): Promise<FakeCli> {
  const dir = await mkdtemp(join(tmpdir(), `locus-fake-${options.name}-`));
  const stream = options.fixture
    ? (await readFile(join(FIXTURES, options.fixture), "utf8")).replaceAll("__CWD__", options.cwd)
    : "";
  const answered = (json: string, text: string) =>
    stream.replaceAll('"__ANSWER_JSON__"', json).replaceAll('"__ANSWER_TEXT__"', JSON.stringify(text));
  await writeFile(join(dir, "stream.jsonl"), answered("null", "I studied the repository."));
  const answer = JSON.stringify(options.answer ?? null);
  const writes = Object.entries(options.writes ?? {});
  await Promise.all(writes.map(([, content], index) => writeFile(join(dir, `write-${index}`), content)));
  await writeFile(join(dir, "stream-answer.jsonl"), answered(answer, answer));
  const script = [
    "#!/usr/bin/env bash",
    `if [ "$1" = "--version" ]; then echo '${options.version}'; exit 0; fi`,
    `printf '%s\\0' "$@" > '${dir}/args'`,
    `cat > '${dir}/stdin'`,
    `env > '${dir}/env'`,
    `stream='${dir}/stream.jsonl'`,
    "previous=''",
    'for arg in "$@"; do',
    `  if [ "$arg" = "--json-schema" ]; then stream='${dir}/stream-answer.jsonl'; fi`,
    `  if [ "$previous" = "--output-schema" ]; then cp "$arg" '${dir}/output-schema.json'; stream='${dir}/stream-answer.jsonl'; fi`,
    '  previous="$arg"',
    "done",
    ...writes.map(
      ([path], index) => `mkdir -p "$(dirname '${path}')" && cp '${dir}/write-${index}' '${path}'`,
    ),
    // The sleeper starts before any output, so an abort triggered by an event always finds it.
    options.hang ? `sleep 30 & echo $! > '${dir}/sleep.pid'` : "",
    'cat "$stream"',
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
    outputSchema: () => readFile(join(dir, "output-schema.json"), "utf8"),
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
