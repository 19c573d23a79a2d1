/**
 * The naive reference for a standalone task, the flow written with the `gh` CLI, one call
 * per operation: read the issue, its comments and labels; move the status label by removing one
 * and adding another; look the default branch and a free branch name up; post progress as new
 * comments; open the PR; move the label again. No caching, no GraphQL, no sticky comment.
 * Counted by the same simulator as Locus, so the ratio compares like with like.
 */
import { Octokit } from "@octokit/core";

export async function naiveStandaloneTask(options: {
  apiUrl: string;
  token: string;
  owner: string;
  repo: string;
  issue: number;
  /** A branch already pushed with the change (git traffic is not API traffic). */
  branch: string;
}): Promise<void> {
  const gh = new Octokit({ auth: options.token, baseUrl: options.apiUrl });
  const at = { owner: options.owner, repo: options.repo, issue_number: options.issue };
  const relabel = async (from: string, to: string) => {
    await gh.request("GET /repos/{owner}/{repo}/issues/{issue_number}/labels", at);
    await gh.request("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", {
      ...at,
      name: from,
    });
    await gh.request("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", { ...at, labels: [to] });
  };
  await gh.request("GET /repos/{owner}/{repo}/issues/{issue_number}", at);
  await gh.request("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", at);
  await relabel("locus:queued", "locus:in-progress");
  await gh.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...at, body: "Started." });
  const { data: repo } = await gh.request("GET /repos/{owner}/{repo}", at);
  // Probe for a free branch name, as the resolver-style clients do.
  await gh
    .request("GET /repos/{owner}/{repo}/branches/{branch}", { ...at, branch: `${options.branch}-taken` })
    .catch(() => undefined);
  await gh.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
    ...at,
    body: "Agent running.",
  });
  await gh.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
    ...at,
    body: "Committed.",
  });
  const { data: pr } = await gh.request("POST /repos/{owner}/{repo}/pulls", {
    ...at,
    head: options.branch,
    base: repo.default_branch,
    title: `Fix #${options.issue}`,
    body: `Closes #${options.issue}`,
  });
  await relabel("locus:in-progress", "locus:in-review");
  await gh.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
    ...at,
    body: `Opened #${pr.number}.`,
  });
}
