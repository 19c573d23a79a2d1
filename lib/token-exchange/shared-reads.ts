/**
 * Exchanges asked at the same moment share their GitHub reads. When someone
 * labels many issues, many runs start at once and each asks for its tokens
 * within the same second, so the app would read the same installation, the
 * same repository and its config once per exchange. A read still in flight
 * is shared by every exchange that needs the same answer; none is kept once
 * it has settled, so no exchange sees an answer older than its own arrival
 * allows (the read began while it was waiting to be answered) and a config
 * change counts from the next read. Minting is never shared: each exchange
 * gets its own token.
 */
import type { ExchangeGitHub } from "./exchange.ts";

/** Runs `read` once per key while it is in flight; every caller with that key gets its answer. */
function inFlightOnce<T>(): (key: string, read: () => Promise<T>) => Promise<T> {
  const pending = new Map<string, Promise<T>>();
  return (key, read) => {
    const known = pending.get(key);
    if (known) return known;
    const answer = read().finally(() => pending.delete(key));
    pending.set(key, answer);
    return answer;
  };
}

export function withSharedReads(github: ExchangeGitHub): ExchangeGitHub {
  const installations = inFlightOnce<number | null>();
  const repositories = inFlightOnce<Awaited<ReturnType<ExchangeGitHub["repository"]>>>();
  const runs = inFlightOnce<Awaited<ReturnType<ExchangeGitHub["run"]>>>();
  return {
    ...github,
    installationOf: (owner, repo) =>
      installations(`${owner}/${repo}`.toLowerCase(), () => github.installationOf(owner, repo)),
    repository: (installation, owner, repo) =>
      repositories(`${installation}:${owner}/${repo}`.toLowerCase(), () =>
        github.repository(installation, owner, repo),
      ),
    run: (installation, owner, repo, runId) =>
      runs(`${installation}:${owner}/${repo}#${runId}`.toLowerCase(), () =>
        github.run(installation, owner, repo, runId),
      ),
  };
}
