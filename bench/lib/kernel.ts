/**
 * The large real tree for the repository-context and git benchmarks: the Linux kernel source
 * from Debian's `linux-source-6.1` package, made into a one-commit git repository once and kept
 * under `bench/.cache/` (ignored by git). Debian is the only source reachable from CI machines,
 * and the kernel is the corpus ripgrep's own benchmark suite uses, so figures are comparable.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

export const CACHE_DIR = join(import.meta.dirname, "..", ".cache");
export const KERNEL_REPO = join(CACHE_DIR, "linux");
const READY = join(CACHE_DIR, "linux.ready");
const PACKAGE = "linux-source-6.1";

/** Fixed identity and dates so the commit (and its id) is the same on every machine. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
  GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
};

export type KernelTree = { ok: true; dir: string } | { ok: false; reason: string };

/**
 * The kernel repository, fetched and built on first use. In CI (`CI=true`) an absent cache is a
 * skip rather than a 140 MB download and a few minutes of `git add`.
 */
export async function kernelTree(log: (line: string) => void): Promise<KernelTree> {
  if (existsSync(READY)) return { ok: true, dir: KERNEL_REPO };
  if (process.env["CI"] === "true") {
    return {
      ok: false,
      reason: `no kernel tree in bench/.cache and CI=true; run \`npm run bench -- repo-context\` once outside CI to build it`,
    };
  }
  await mkdir(CACHE_DIR, { recursive: true });
  const deb = await debianPackage(log);
  log(`unpacking ${deb}`);
  const staging = join(CACHE_DIR, "staging");
  await rm(staging, { recursive: true, force: true });
  await rm(KERNEL_REPO, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  // The .deb holds the kernel as one tarball; unpack it, then the tarball, without root.
  await pipeline(`dpkg-deb --fsys-tarfile '${deb}' | tar -x -C '${staging}' --wildcards '*.tar.xz'`);
  const tarball = join(staging, "usr", "src", `${PACKAGE}.tar.xz`);
  await pipeline(`tar -xJf '${tarball}' -C '${staging}'`);
  const top = (await readdir(staging)).find((name) => name.startsWith("linux-source"));
  if (top === undefined) throw new Error(`no linux-source directory in ${tarball}`);
  await rename(join(staging, top), KERNEL_REPO);
  await rm(staging, { recursive: true, force: true });
  await dropDebianIgnore(join(KERNEL_REPO, ".gitignore"));
  log("committing the kernel tree (a few minutes, once)");
  const git = (args: string[]) =>
    exec("git", args, { cwd: KERNEL_REPO, env: { ...process.env, ...GIT_ENV }, maxBuffer: 1 << 26 });
  await git(["init", "--quiet", "--initial-branch=main"]);
  await git(["add", "-A"]);
  await git(["commit", "--quiet", "--no-verify", "-m", `${PACKAGE} from Debian`]);
  await writeFile(READY, `${new Date().toISOString()}\n`);
  return { ok: true, dir: KERNEL_REPO };
}

/**
 * Debian's packaging appends `/*` to the top-level .gitignore ("ignore everything at the top
 * level, since it isn't included in our repository"), which would leave the repository empty
 * and make every gitignore-aware tool see nothing. Cut it to restore upstream's rules.
 */
async function dropDebianIgnore(file: string): Promise<void> {
  const text = await readFile(file, "utf8");
  const cut = text.indexOf("# Debian packaging");
  if (cut >= 0) await writeFile(file, text.slice(0, text.lastIndexOf("#\n", cut)));
}

/** The newest `linux-source-6.1` .deb in the cache, downloaded with apt (no root needed) if absent. */
async function debianPackage(log: (line: string) => void): Promise<string> {
  const cached = async () =>
    (await readdir(CACHE_DIR)).find((n) => n.startsWith(PACKAGE) && n.endsWith(".deb"));
  const present = await cached();
  if (present !== undefined) return join(CACHE_DIR, present);
  log(`downloading ${PACKAGE} from Debian (about 140 MB)`);
  try {
    await exec("apt-get", ["download", PACKAGE], { cwd: CACHE_DIR });
  } catch (error) {
    throw new Error(
      `apt-get download ${PACKAGE} failed (run \`apt-get update\` first?): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const fetched = await cached();
  if (fetched === undefined) throw new Error(`apt-get download left no ${PACKAGE} .deb`);
  return join(CACHE_DIR, fetched);
}

function pipeline(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", `set -e; ${command}`], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${stderr.slice(0, 500)}`)),
    );
  });
}
