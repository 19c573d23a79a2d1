/**
 * Whether bubblewrap can make a sandbox here, asked once per process: bwrap must be installed
 * and the kernel must let this user create user namespaces (Ubuntu 24.04's AppArmor refuses
 * them to unprivileged users by default, which only a non-root test shows).
 */
import { spawnSync } from "node:child_process";
import { findExecutableSync } from "./find-executable-sync.ts";

export type ProbeResult = { ok: true; bwrap: string } | { ok: false; reason: string };

const cache = new Map<string, ProbeResult>();

export function probeBubblewrap(path: string | undefined): ProbeResult {
  const key = path ?? "";
  const known = cache.get(key);
  if (known) return known;
  const result = probe(path);
  cache.set(key, result);
  return result;
}

function probe(path: string | undefined): ProbeResult {
  const bwrap = findExecutableSync("bwrap", path);
  if (bwrap === undefined) return { ok: false, reason: "bubblewrap (bwrap) is not installed" };
  const run = spawnSync(
    bwrap,
    ["--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/", "/", "--proc", "/proc", "true"],
    { encoding: "utf8", timeout: 10_000 },
  );
  if (run.status === 0) return { ok: true, bwrap };
  const said = (run.stderr || run.error?.message || `exit ${run.status}`).trim();
  return { ok: false, reason: `bubblewrap cannot create a sandbox here: ${said}` };
}

/** What a user does to get a sandbox, for the message that stops a run without one. */
export const HOW_TO_GET_A_SANDBOX = [
  "Install bubblewrap (Debian/Ubuntu: `sudo apt-get install -y bubblewrap`; the reusable workflow does this on GitHub's Ubuntu runners).",
  "On Ubuntu 24.04 and later, AppArmor refuses user namespaces to unprivileged users: allow them with `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (the reusable workflow does this too), or install an AppArmor profile that grants `userns` to /usr/bin/bwrap.",
  "Inside a container, run it with user namespaces allowed (e.g. Docker's `--security-opt seccomp=unconfined --security-opt apparmor=unconfined`).",
  "Or set `sandbox.mode: off` in .github/locus.yml to run the agent without a sandbox: its commands then see the runner's files, network and processes.",
].join(" ");
