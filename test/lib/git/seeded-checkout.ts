import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Runs git in a directory, as each test file sets it up (its own home and identity). */
type Git = (cwd: string, args: string[]) => Promise<unknown>;

/** A bare remote at `<dir>/remote.git` seeded with one commit on main (`a.txt`), and a clone of it at `<dir>/work`. */
export async function seedCheckout(dir: string, sh: Git): Promise<void> {
  const seed = join(dir, "seed");
  await mkdir(seed);
  await sh(seed, ["init", "--quiet", "-b", "main"]);
  await writeFile(join(seed, "a.txt"), "one\n");
  await sh(seed, ["add", "."]);
  await sh(seed, ["commit", "--quiet", "-m", "init"]);
  await sh(dir, ["clone", "--quiet", "--bare", seed, "remote.git"]);
  await sh(dir, ["clone", "--quiet", join(dir, "remote.git"), "work"]);
}
