/** The spawner runs programs from its small child process and answers as execFile would. */
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { spawnerRun } from "../../../sandbox/spawner/spawner.ts";

describe("spawnerRun", () => {
  it("answers a program's output, error output and exit status, its input and bytes intact", async () => {
    const run = await spawnerRun({
      file: "sh",
      args: ["-c", 'cat; printf "\\000\\377"; echo oops >&2; exit 3'],
      input: Buffer.from("from stdin\n"),
    });
    expect(run.code).toBe(3);
    expect(run.signal).toBeNull();
    expect([...run.stdout]).toEqual([...Buffer.from("from stdin\n"), 0, 255]);
    expect(run.stderr.toString()).toBe("oops\n");
  });

  it("runs in the directory and with exactly the environment it is given", async () => {
    const run = await spawnerRun({
      file: "sh",
      args: ["-c", 'pwd; echo "${SPAWNED:-unset} ${HOME:-no home}"'],
      cwd: tmpdir(),
      env: { PATH: process.env["PATH"] ?? "", SPAWNED: "yes" },
    });
    expect(run.stdout.toString()).toBe(`${tmpdir()}\nyes no home\n`);
  });

  it("runs requests side by side and gives each its own answer", async () => {
    const runs = await Promise.all(
      [1, 2, 3, 4].map((n) => spawnerRun({ file: "sh", args: ["-c", `echo ${n}; exit ${n}`] })),
    );
    expect(runs.map((run) => [run.stdout.toString(), run.code])).toEqual([
      ["1\n", 1],
      ["2\n", 2],
      ["3\n", 3],
      ["4\n", 4],
    ]);
  });

  it("answers a program that ends without reading its input", async () => {
    const runs = await Promise.all(
      [1, 2, 3].map(() => spawnerRun({ file: "true", args: [], input: Buffer.alloc(4 * 1024 * 1024) })),
    );
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
  });

  it("rejects when the program cannot be started, and goes on serving", async () => {
    await expect(spawnerRun({ file: "/nonexistent/program", args: [] })).rejects.toThrow(/ENOENT/);
    expect((await spawnerRun({ file: "true", args: [] })).code).toBe(0);
  });
});
