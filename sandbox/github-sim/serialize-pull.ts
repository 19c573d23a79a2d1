import type { SimCore } from "./core.ts";
import type { Issue, PullData, Repo, Review, ReviewComment } from "./model.ts";
import { repoKey } from "./model.ts";
import type { CommitInfo, RawChange } from "./git.ts";
import type { FilePatch } from "./diff.ts";
import { parseDiff } from "./diff.ts";
import { branchSha, commitsBetween, threeDotDiff } from "./git.ts";
import { labelJson, milestoneJson, reactionRollup } from "./serialize-issue.ts";
import { repoJson } from "./serialize-repo.ts";
import { authorAssociation, nodeId, userJson } from "./serialize-user.ts";
import { issueLabels, milestoneById } from "./store.ts";

export type PullIssue = Issue & { pull: PullData };

export async function pullHeadSha(repo: Repo, issue: PullIssue): Promise<string> {
  return (await branchSha(repo.gitDir, issue.pull.head)) ?? issue.pull.headShaAtClose ?? "";
}

/**
 * Where a pull request's diff starts: the base branch's head while it is open,
 * and the base as it was just before the merge once merged, so a merged PR
 * keeps its commits and line counts as on GitHub.
 */
export async function pullDiffBase(repo: Repo, issue: PullIssue): Promise<string | null> {
  if (issue.pull.merged && issue.pull.mergeCommitSha) return `${issue.pull.mergeCommitSha}^1`;
  return branchSha(repo.gitDir, issue.pull.base);
}

function branchJson(core: SimCore, repo: Repo, branch: string, sha: string): Record<string, unknown> {
  return {
    label: `${repo.owner}:${branch}`,
    ref: branch,
    sha,
    user: userJson(core, repo.owner),
    repo: repoJson(core, repo),
  };
}

/**
 * A PR's head: a branch of this repository, or of a fork. (GitHub answers `repo: null` once the
 * fork is deleted, which its published schema does not allow, so the simulator serves live forks.)
 */
function headJson(core: SimCore, repo: Repo, pull: PullData, sha: string): Record<string, unknown> {
  if (pull.headRepository === undefined) return branchJson(core, repo, pull.head, sha);
  const [owner = "", name = ""] = pull.headRepository.split("/");
  const fork = core.store.repos.get(repoKey(owner, name));
  if (!fork) throw new Error(`sim: the fork ${pull.headRepository} (head ${pull.head}) is not seeded`);
  return { ...branchJson(core, fork, pull.head, sha), repo: { ...repoJson(core, fork), fork: true } };
}

export async function pullJson(
  core: SimCore,
  repo: Repo,
  issue: PullIssue,
  full: boolean,
): Promise<Record<string, unknown>> {
  const api = `${core.urls.api}/repos/${repo.owner}/${repo.name}`;
  const url = `${api}/pulls/${issue.number}`;
  const web = `${core.urls.web}/${repo.owner}/${repo.name}/pull/${issue.number}`;
  const headSha = await pullHeadSha(repo, issue);
  const baseSha = (await branchSha(repo.gitDir, issue.pull.base)) ?? "";
  const milestone = milestoneById(repo, issue.milestoneId);
  const assignees = issue.assignees.map((login) => userJson(core, login));
  const json: Record<string, unknown> = {
    url,
    id: issue.id,
    node_id: nodeId("PR", issue.id),
    html_url: web,
    diff_url: `${web}.diff`,
    patch_url: `${web}.patch`,
    issue_url: `${api}/issues/${issue.number}`,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${issue.number}/comments`,
    statuses_url: `${api}/statuses/${headSha}`,
    number: issue.number,
    state: issue.state,
    locked: issue.locked,
    title: issue.title,
    user: userJson(core, issue.author),
    body: issue.body,
    labels: issueLabels(repo, issue).map((label) => labelJson(core, repo, label)),
    milestone: milestone ? milestoneJson(core, repo, milestone) : null,
    active_lock_reason: null,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    merged_at: issue.pull.mergedAt,
    merge_commit_sha: issue.pull.mergeCommitSha,
    assignee: assignees[0] ?? null,
    assignees,
    requested_reviewers: [],
    requested_teams: [],
    head: headJson(core, repo, issue.pull, headSha),
    base: branchJson(core, repo, issue.pull.base, baseSha),
    _links: {
      self: { href: url },
      html: { href: web },
      issue: { href: `${api}/issues/${issue.number}` },
      comments: { href: `${api}/issues/${issue.number}/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${api}/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${api}/statuses/${headSha}` },
    },
    author_association: authorAssociation(repo, issue.author),
    auto_merge: null,
    draft: issue.pull.draft,
  };
  if (!full) return json;
  const open = issue.state === "open";
  const diffBase = open || issue.pull.merged ? await pullDiffBase(repo, issue) : null;
  const range = headSha && diffBase ? await diffRange(repo, diffBase, headSha) : null;
  return {
    ...json,
    merged: issue.pull.merged,
    mergeable: open ? true : null,
    rebaseable: open ? true : null,
    mergeable_state: open ? "clean" : "unknown",
    merged_by: issue.pull.mergedBy ? userJson(core, issue.pull.mergedBy) : null,
    comments: repo.comments.filter((comment) => comment.issueNumber === issue.number).length,
    review_comments: repo.reviewComments.filter((comment) => comment.pullNumber === issue.number).length,
    maintainer_can_modify: issue.pull.maintainerCanModify,
    commits: range?.commits ?? 0,
    additions: range?.additions ?? 0,
    deletions: range?.deletions ?? 0,
    changed_files: range?.files ?? 0,
  };
}

async function diffRange(
  repo: Repo,
  baseSha: string,
  headSha: string,
): Promise<{ commits: number; additions: number; deletions: number; files: number }> {
  const commits = await commitsBetween(repo.gitDir, baseSha, headSha);
  const files = parseDiff(await threeDotDiff(repo.gitDir, baseSha, headSha));
  return {
    commits: commits.length,
    additions: files.reduce((sum, file) => sum + file.additions, 0),
    deletions: files.reduce((sum, file) => sum + file.deletions, 0),
    files: files.length,
  };
}

export function reviewJson(core: SimCore, repo: Repo, review: Review): Record<string, unknown> {
  const api = `${core.urls.api}/repos/${repo.owner}/${repo.name}`;
  const web = `${core.urls.web}/${repo.owner}/${repo.name}/pull/${review.pullNumber}`;
  return {
    id: review.id,
    node_id: nodeId("PRR", review.id),
    user: userJson(core, review.author),
    body: review.body,
    state: review.state,
    html_url: `${web}#pullrequestreview-${review.id}`,
    pull_request_url: `${api}/pulls/${review.pullNumber}`,
    author_association: authorAssociation(repo, review.author),
    _links: {
      html: { href: `${web}#pullrequestreview-${review.id}` },
      pull_request: { href: `${api}/pulls/${review.pullNumber}` },
    },
    submitted_at: review.submittedAt,
    commit_id: review.commitId,
  };
}

export function reviewCommentJson(
  core: SimCore,
  repo: Repo,
  comment: ReviewComment,
): Record<string, unknown> {
  const api = `${core.urls.api}/repos/${repo.owner}/${repo.name}`;
  const url = `${api}/pulls/comments/${comment.id}`;
  const web = `${core.urls.web}/${repo.owner}/${repo.name}/pull/${comment.pullNumber}#discussion_r${comment.id}`;
  const json: Record<string, unknown> = {
    url,
    pull_request_review_id: comment.reviewId,
    id: comment.id,
    node_id: nodeId("PRRC", comment.id),
    diff_hunk: comment.diffHunk,
    position: comment.position,
    original_position: comment.position,
    path: comment.path,
    commit_id: comment.commitId,
    original_commit_id: comment.commitId,
    user: userJson(core, comment.author),
    body: comment.body,
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    html_url: web,
    pull_request_url: `${api}/pulls/${comment.pullNumber}`,
    author_association: authorAssociation(repo, comment.author),
    _links: {
      self: { href: url },
      html: { href: web },
      pull_request: { href: `${api}/pulls/${comment.pullNumber}` },
    },
    start_line: null,
    original_start_line: null,
    start_side: null,
    line: comment.line,
    original_line: comment.line,
    side: comment.side,
    subject_type: "line",
    reactions: reactionRollup(repo, `${url}/reactions`, { kind: "comment", id: comment.id }),
  };
  if (comment.inReplyTo !== null) json.in_reply_to_id = comment.inReplyTo;
  return json;
}

export function commitJson(core: SimCore, repo: Repo, commit: CommitInfo): Record<string, unknown> {
  const api = `${core.urls.api}/repos/${repo.owner}/${repo.name}`;
  return {
    url: `${api}/commits/${commit.sha}`,
    sha: commit.sha,
    node_id: nodeId("C", parseInt(commit.sha.slice(0, 8), 16)),
    html_url: `${core.urls.web}/${repo.owner}/${repo.name}/commit/${commit.sha}`,
    comments_url: `${api}/commits/${commit.sha}/comments`,
    commit: {
      url: `${api}/git/commits/${commit.sha}`,
      author: { name: commit.authorName, email: commit.authorEmail, date: commit.authorDate },
      committer: { name: commit.committerName, email: commit.committerEmail, date: commit.committerDate },
      message: commit.message,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
      comment_count: 0,
      // Only commits GitHub made itself (createCommitOnBranch) are signed here; pushed ones are not.
      verification: verificationJson(repo.verifiedCommits?.has(commit.sha) ?? false, commit.committerDate),
    },
    author: null,
    committer: null,
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${api}/commits/${sha}`,
      html_url: `${core.urls.web}/${repo.owner}/${repo.name}/commit/${sha}`,
    })),
  };
}

export function diffEntryJson(
  core: SimCore,
  repo: Repo,
  change: RawChange,
  patch: FilePatch | undefined,
  ref: string,
): Record<string, unknown> {
  const api = `${core.urls.api}/repos/${repo.owner}/${repo.name}`;
  const encoded = change.path.split("/").map(encodeURIComponent).join("/");
  const additions = patch?.additions ?? 0;
  const deletions = patch?.deletions ?? 0;
  const json: Record<string, unknown> = {
    sha: change.sha,
    filename: change.path,
    status: change.status,
    additions,
    deletions,
    changes: additions + deletions,
    blob_url: `${core.urls.web}/${repo.owner}/${repo.name}/blob/${ref}/${encoded}`,
    raw_url: `${core.urls.web}/${repo.owner}/${repo.name}/raw/${ref}/${encoded}`,
    contents_url: `${api}/contents/${encoded}?ref=${ref}`,
  };
  if (patch && patch.patch.length > 0) json.patch = patch.patch;
  return json;
}

/** `commit.verification` as GitHub answers it. https://docs.github.com/rest/commits/commits#get-a-commit */
function verificationJson(verified: boolean, at: string): Record<string, unknown> {
  return verified
    ? { verified: true, reason: "valid", signature: "(simulated)", payload: "(simulated)", verified_at: at }
    : { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null };
}
