/**
 * Job logs as GitHub serves them: `GET …/actions/jobs/{job_id}/logs` answers
 * 302 with a short-lived signed URL on another host, which needs no token
 * (https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-run).
 * The other host is a second loopback server; the text has a timestamp on
 * every line and GitHub's `##[group]Run …` / `##[error]` markers.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { CheckRun } from "./ci-model.ts";

const URL_LIFETIME_MS = 60_000;

export function jobLogText(run: CheckRun): string {
  const at = run.startedAt.replace(/Z$/, ".0000000Z");
  const line = (text: string) => `${at} ${text}\n`;
  let log = line("##[group]Set up job") + line("Current runner version: '2.330.0'") + line("##[endgroup]");
  for (const step of run.job?.steps ?? []) {
    if (step.conclusion === "skipped") continue;
    log += line(`##[group]Run ${step.name}`) + line("##[endgroup]");
    for (const text of step.output) log += line(text);
    if (step.conclusion === "failure") log += line("##[error]Process completed with exit code 1.");
  }
  return log + line("Cleaning up orphan processes");
}

export interface LogHost {
  // A signed URL for the job's log, valid for a minute.
  urlFor: (run: CheckRun) => string;
  close: () => Promise<void>;
}

export async function startLogHost(now: () => Date): Promise<LogHost> {
  const grants = new Map<string, { run: CheckRun; expires: number }>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const grant = grants.get(url.searchParams.get("sig") ?? "");
    if (req.method !== "GET" || !grant || grant.expires < now().getTime()) {
      res.writeHead(403, { "content-type": "application/xml" });
      res.end("<Error><Code>AuthenticationFailed</Code></Error>");
      return;
    }
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    res.end(jobLogText(grant.run));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlFor(run) {
      const sig = randomBytes(16).toString("hex");
      grants.set(sig, { run, expires: now().getTime() + URL_LIFETIME_MS });
      return `http://127.0.0.1:${port}/jobs/${run.id}/signedlogcontent?sig=${sig}`;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
