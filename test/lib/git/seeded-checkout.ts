import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** Runs git in a directory, as each test file sets it up (its own home and identity). */
type Git = (cwd: string, args: string[]) => Promise<unknown>;

/** The seeded remote and checkout each file's git made first, copied for every later test. */
const templates = new WeakMap<Git, Promise<string>>();
const made: string[] = [];

// Imported while a test file is collected, so this runs after that file's last test.
afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function seed(dir: string, sh: Git): Promise<void> {
  const seedDir = join(dir, "seed");
  await mkdir(seedDir);
  await sh(seedDir, ["init", "--quiet", "-b", "main"]);
  await writeFile(join(seedDir, "a.txt"), "one\n");
  await sh(seedDir, ["add", "."]);
  await sh(seedDir, ["commit", "--quiet", "-m", "init"]);
  await sh(dir, ["clone", "--quiet", "--bare", seedDir, "remote.git"]);
  await sh(dir, ["clone", "--quiet", join(dir, "remote.git"), "work"]);
}

async function template(sh: Git): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "locus-seeded-checkout-"));
  made.push(dir);
  await seed(dir, sh);
  return dir;
}

/**
 * A bare remote at `<dir>/remote.git` seeded with one commit on main (`a.txt`), and a clone of it
 * at `<dir>/work`. git seeds them once per test file (and `sh`); each test gets a copy of the
 * files, its clone's `origin` pointed at its own remote: the same repositories, without the five
 * git commands (and the processes a clone starts) per test.
 */
export async function seedCheckout(dir: string, sh: Git): Promise<void> {
  let seeded = templates.get(sh);
  if (seeded === undefined) {
    seeded = template(sh);
    templates.set(sh, seeded);
  }
  const from = await seeded;
  await cp(from, dir, { recursive: true });
  const config = join(dir, "work", ".git", "config");
  const text = await readFile(config, "utf8");
  const origin = `url = ${join(from, "remote.git")}\n`;
  if (!text.includes(origin)) throw new Error(`the seeded clone's origin is not ${origin.trim()}`);
  await writeFile(config, text.replace(origin, `url = ${join(dir, "remote.git")}\n`));
}
