/** Small readers over the harness's simulator, so tests assert GitHub's state as a person would see it. */
import { randomOwner, randomRepoName } from "../../sandbox/github-sim/random-names.ts";
import type { AppHarness } from "./harness.ts";

// Names vary as between real installs: one pair per test file, which the harness seeds.
export const owner = randomOwner();
export const repo = randomRepoName();

export async function labelsOf(h: AppHarness, issue: number): Promise<string[]> {
  const { data } = await h.as("alice").rest.issues.get({ owner, repo, issue_number: issue });
  return data.labels.map((label) => (typeof label === "string" ? label : (label.name ?? ""))).sort();
}

export async function commentsOf(h: AppHarness, issue: number): Promise<string[]> {
  const { data } = await h
    .as("alice")
    .rest.issues.listComments({ owner, repo, issue_number: issue, per_page: 100 });
  return data.map((comment) => comment.body ?? "");
}

export function runs(h: AppHarness) {
  return h.sim.store.repos.get(`${owner}/${repo}`)?.runs ?? [];
}

export async function newIssue(
  h: AppHarness,
  title: string,
  extra: { labels?: string[]; milestone?: number } = {},
): Promise<number> {
  const { data } = await h.as("alice").rest.issues.create({ owner, repo, title, ...extra });
  await h.settle();
  return data.number;
}

export async function comment(h: AppHarness, login: string, issue: number, body: string): Promise<void> {
  await h.as(login).rest.issues.createComment({ owner, repo, issue_number: issue, body });
  await h.settle();
}

/** GitHub calls the app made, as `METHOD path` lines (the simulator's request log). */
export function appCalls(h: AppHarness, since: number): string[] {
  return h.sim.requestLog
    .slice(since)
    .filter((entry) => entry.login === h.sim.app.botLogin)
    .map((entry) => `${entry.method} ${entry.path}`);
}
