/**
 * The path swap race (docs/reliability.md): while the file tools read, write and edit a path, another
 * process keeps swapping it between a regular file (or directory) inside the
 * worktree and a symlink to a directory outside it. A tool that checks the
 * path and then opens it by name again can be steered outside between the
 * two; every call must instead be refused or stay confined, and every file
 * outside the worktree must keep its checksum.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinTools, runTool } from "../../lib/agent/tools/registry.ts";
import { createWorktree, type TestWorktree } from "../lib/agent/tools/worktree.ts";

const ITERATIONS = 1_000;
const SECRET = "outside secret: must never be read\n";

/**
 * Swaps `target` between a regular file or directory inside the worktree and a symlink to
 * `outside`, until killed: files by an atomic rename, directories (which rename cannot put
 * over a symlink) by removing and recreating.
 */
const SWAPPER = String.raw`
const fs = require("node:fs");
const [target, outside, kind] = process.argv.slice(1);
const link = target + ".swap-link";
const real = target + ".swap-real";
process.send("ready");
for (let i = 0; ; i++) {
  if (kind === "directory") {
    // The tools may recreate the directory between two steps: start the round again.
    try {
      fs.rmSync(target, { force: true, recursive: true });
      fs.symlinkSync(outside, target);
      fs.rmSync(target, { force: true });
      fs.mkdirSync(target);
    } catch {}
  } else {
    fs.symlinkSync(outside, link);
    fs.renameSync(link, target);
    fs.writeFileSync(real, "inside " + i + "\n");
    fs.renameSync(real, target);
  }
}
`;

let worktree: TestWorktree;
let swapper: ChildProcess | undefined;

beforeEach(async () => {
  worktree = await createWorktree();
  await worktree.write("keep.txt", "inside\n");
});

afterEach(async () => {
  swapper?.kill("SIGKILL");
  swapper = undefined;
  await worktree.cleanup();
});

async function startSwapper(target: string, outside: string, kind: "file" | "directory"): Promise<void> {
  const child = spawn(process.execPath, ["-e", SWAPPER, target, outside, kind], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  swapper = child;
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the swapper exited ${code}`)));
  });
}

/** Name → SHA-256 of every file in `dir` (recursively), and the names themselves. */
async function checksums(dir: string): Promise<Record<string, string>> {
  const sums: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    sums[path.relative(dir, file)] = entry.isFile()
      ? createHash("sha256")
          .update(await readFile(file))
          .digest("hex")
      : entry.isDirectory()
        ? "directory"
        : "other";
  }
  return sums;
}

interface Tally {
  refused: number;
  confined: number;
}

describe("symlink races against the file tools (1,000 iterations)", () => {
  it("a file swapped with a symlink to outside: reads, writes and edits are refused or stay inside", async () => {
    const secretFile = path.join(worktree.outside, "secret.txt");
    await writeFile(secretFile, SECRET);
    const before = await checksums(worktree.outside);
    await startSwapper(path.join(worktree.root, "target.txt"), secretFile, "file");

    const tools = builtinTools();
    const context = worktree.context();
    const tally: Record<string, Tally> = {
      read_file: { refused: 0, confined: 0 },
      write_file: { refused: 0, confined: 0 },
      edit_file: { refused: 0, confined: 0 },
    };
    for (let i = 0; i < ITERATIONS; i++) {
      const read = await runTool(tools, "read_file", { path: "target.txt" }, context);
      expect(read.content).not.toContain("outside secret");
      tally.read_file![read.isError ? "refused" : "confined"] += 1;

      const write = await runTool(
        tools,
        "write_file",
        { path: "target.txt", content: `pwned ${i}\n` },
        context,
      );
      tally.write_file![write.isError ? "refused" : "confined"] += 1;

      const edit = await runTool(
        tools,
        "edit_file",
        { path: "target.txt", old_text: "outside secret", new_text: "pwned" },
        context,
      );
      expect(edit.content).not.toContain("outside secret: must");
      tally.edit_file![edit.isError ? "refused" : "confined"] += 1;
    }
    expect(swapper?.exitCode, "the swapper ran to the end").toBeNull();
    swapper?.kill("SIGKILL");

    expect(await checksums(worktree.outside)).toEqual(before);
    for (const [tool, counts] of Object.entries(tally)) {
      expect(counts.refused + counts.confined, tool).toBe(ITERATIONS);
    }
    // The race was really run: some calls met the symlink and some the file.
    expect(tally.read_file!.refused).toBeGreaterThan(0);
    expect(tally.read_file!.confined).toBeGreaterThan(0);
  });

  it("a directory swapped with a symlink to an outside directory: new files land inside or nowhere", async () => {
    const before = await checksums(worktree.outside);
    await startSwapper(path.join(worktree.root, "dir"), worktree.outside, "directory");

    const tools = builtinTools();
    const context = worktree.context();
    let refused = 0;
    let confined = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const write = await runTool(
        tools,
        "write_file",
        { path: `dir/new-${i}.txt`, content: `pwned ${i}\n` },
        context,
      );
      const deeper = await runTool(
        tools,
        "write_file",
        { path: `dir/deeper-${i}/new.txt`, content: `pwned ${i}\n` },
        context,
      );
      for (const result of [write, deeper]) {
        if (result.isError) refused += 1;
        else confined += 1;
      }
    }
    expect(swapper?.exitCode, "the swapper ran to the end").toBeNull();
    swapper?.kill("SIGKILL");

    expect(await checksums(worktree.outside)).toEqual(before);
    expect(refused + confined).toBe(2 * ITERATIONS);
    expect(refused).toBeGreaterThan(0);
  });
});
