/**
 * The nested-repository attack on the host boundary: the agent makes a repository in the worktree
 * whose own config has a `filter.x.clean` and whose `.gitattributes` says `* filter=x`, and leaves a
 * file in it dirty. A host git that looks inside it runs the filter as the runner's user: here it
 * would dump its environment and write a marker outside the sandbox (in `dir`, the harness's
 * directory), and set NODE_OPTIONS for later steps through GITHUB_ENV. Played by
 * host-boundary.test.ts on a fresh issue, and with the bad CONNECT port as the attack moves
 * (attack-variants.ts) by shared-home-attacks.test.ts.
 */
import { basename, join } from "node:path";
import { call } from "../../sandbox/anthropic-fake/script.ts";
import type { FakeBlock } from "../../sandbox/anthropic-fake/types.ts";
import { SESSION_INIT } from "../../lib/sandbox/session-init.ts";
import type { StartedProcess } from "./record-processes.ts";

export const shell = (command: string): FakeBlock => call("run_shell", { command });

/** Where the filter, run on the host, would leave its marker and its environment. */
export function filterTraces(dir: string): { readonly marker: string; readonly envDump: string } {
  return { marker: join(dir, "filter-ran"), envDump: join(dir, "filter-env") };
}

/** One shell line: the nested repository with the filter, committed, then a file left dirty. */
export function plantNestedRepository(dir: string): string {
  const { marker, envDump } = filterTraces(dir);
  // On the host it would also find the runner's GITHUB_ENV and set NODE_OPTIONS for later steps.
  const filter = `sh -c 'env > ${envDump}; echo ran > ${marker}; echo NODE_OPTIONS=x >> \\$GITHUB_ENV; cat'`;
  // The attacker's own git runs no fsmonitor a home plant of the same session set
  // (shared-home-attacks.test.ts counts every payload that runs).
  const git = "git -c core.fsmonitor=false -c user.name=a -c user.email=a@b";
  return [
    "mkdir -p vendor/lib && cd vendor/lib && git init -q",
    // Written to the file: the shell policy refuses `git config`.
    `printf '[filter "x"]\\n\\tclean = %s\\n' "${filter}" >> .git/config`,
    "echo '* filter=x' > .gitattributes && echo dirty > f.txt",
    `${git} add . >/dev/null 2>&1`,
    `${git} commit -qm n >/dev/null 2>&1`,
    "echo dirtier > f.txt; echo planted",
  ].join("; ");
}

/** A port out of range, which once threw in the egress proxy and ended the Action with the issue in progress. */
export const BAD_PORT =
  "exec 3<>/dev/tcp/127.0.0.1/3128; printf 'CONNECT registry.npmjs.org:99999 HTTP/1.1\\r\\n\\r\\n' >&3; head -c 12 <&3; echo; echo proxy-answered";

/**
 * Whether Locus's git ran in a sandbox session of its own: offline (no relay to the proxy), its git
 * directory writable. Its commands go to the session over a pipe, so the session's start is what shows.
 */
export function gitSessionStarted(started: readonly StartedProcess[]): boolean {
  return started.some(
    (p) =>
      basename(p.file) === "bwrap" &&
      p.args.includes(SESSION_INIT) &&
      !(p.args.at(-1) ?? "").includes("proxySocket"),
  );
}
