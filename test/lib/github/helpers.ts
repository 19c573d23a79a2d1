import { vi } from "vitest";
import {
  createActionOctokit,
  createGateway,
  type GatewayOptions,
  type Log,
} from "../../../lib/github/index.ts";

export const API = "https://api.github.com";
export const REPO = { owner: "acme", repo: "widgets" };
export const R = "/repos/acme/widgets";

export type RecordingLog = Log & { lines: string[] };

export function recordingLog(): RecordingLog {
  const lines: string[] = [];
  const at = (level: string) => (msg: string) => void lines.push(`${level}: ${msg}`);
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

let ids = 0;

/** An Action octokit with every delay at zero and its own throttle queue. */
export function testOctokit(options: { baseUrl?: string; maxRetries?: number; log?: Log } = {}) {
  const wait = vi.fn((_ms: number) => Promise.resolve());
  ids += 1;
  const octokit = createActionOctokit({
    token: "ghs_test",
    baseUrl: options.baseUrl ?? API,
    log: options.log ?? recordingLog(),
    throttleId: `test-${ids}`,
    minWriteIntervalMs: 0,
    retryUnitMs: 0,
    wait,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
  });
  return { octokit, wait };
}

export function testGateway(
  options: { baseUrl?: string; maxRetries?: number; rateLimit?: GatewayOptions["rateLimit"] } = {},
) {
  const log = recordingLog();
  const { octokit, wait } = testOctokit({ ...options, log });
  const gateway = createGateway({
    ownLogins: ["locus[bot]"],
    octokit,
    repo: REPO,
    log,
    rateLimit: options.rateLimit ?? { wait: () => Promise.resolve() },
  });
  return { gateway, octokit, log, wait };
}

export function comment(id: number, body: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    body,
    user: { login: "locus[bot]", type: "Bot" },
    author_association: "NONE",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    html_url: `https://github.com/acme/widgets/issues/1#issuecomment-${id}`,
    ...extra,
  };
}

export function issue(number: number, extra: Record<string, unknown> = {}) {
  return {
    number,
    title: `Issue ${number}`,
    body: `Body ${number}`,
    state: "open",
    labels: [{ name: "locus:queued" }],
    milestone: null,
    user: { login: "alice" },
    html_url: `https://github.com/acme/widgets/issues/${number}`,
    updated_at: "2026-01-01T00:00:00Z",
    ...extra,
  };
}

export function pull(number: number, extra: Record<string, unknown> = {}) {
  return {
    number,
    title: `PR ${number}`,
    body: "Closes #1",
    state: "open",
    merged_at: null,
    draft: false,
    head: { ref: "locus/issue-1", sha: "abc123" },
    base: { ref: "main" },
    user: { login: "locus[bot]" },
    html_url: `https://github.com/acme/widgets/pull/${number}`,
    ...extra,
  };
}

export function milestone(number: number, extra: Record<string, unknown> = {}) {
  return {
    number,
    title: "Sprint 1",
    description: "locus: active",
    state: "open",
    due_on: null,
    open_issues: 2,
    closed_issues: 1,
    html_url: `https://github.com/acme/widgets/milestone/${number}`,
    ...extra,
  };
}

/** The real gateway against the simulator: no waits, no retries, so a refusal shows at once. */
export function simulatorGateway(options: {
  apiUrl: string;
  token: string;
  repo: { owner: string; repo: string };
  ownLogins: string[];
  log?: Log;
}) {
  const log = options.log ?? recordingLog();
  return createGateway({
    ownLogins: options.ownLogins,
    octokit: createActionOctokit({
      token: options.token,
      baseUrl: options.apiUrl,
      log,
      minWriteIntervalMs: 0,
      retryUnitMs: 0,
      maxRetries: 0,
    }),
    repo: options.repo,
    log,
  });
}
