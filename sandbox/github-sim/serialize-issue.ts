import type { SimCore } from "./core.ts";
import type { Issue, IssueComment, Label, Milestone, Reaction, Repo } from "./model.ts";
import { issueLabels, milestoneById, milestoneCounts } from "./store.ts";
import { authorAssociation, nodeId, userJson } from "./serialize-user.ts";

function repoApi(core: SimCore, repo: Repo): string {
  return `${core.urls.api}/repos/${repo.owner}/${repo.name}`;
}

function repoWeb(core: SimCore, repo: Repo): string {
  return `${core.urls.web}/${repo.owner}/${repo.name}`;
}

export function labelJson(core: SimCore, repo: Repo, label: Label): Record<string, unknown> {
  return {
    id: label.id,
    node_id: nodeId("LA", label.id),
    url: `${repoApi(core, repo)}/labels/${encodeURIComponent(label.name)}`,
    name: label.name,
    color: label.color,
    default: label.isDefault,
    description: label.description,
  };
}

export function milestoneJson(core: SimCore, repo: Repo, milestone: Milestone): Record<string, unknown> {
  const counts = milestoneCounts(repo, milestone);
  const url = `${repoApi(core, repo)}/milestones/${milestone.number}`;
  return {
    url,
    html_url: `${repoWeb(core, repo)}/milestone/${milestone.number}`,
    labels_url: `${url}/labels`,
    id: milestone.id,
    node_id: nodeId("MI", milestone.id),
    number: milestone.number,
    state: milestone.state,
    title: milestone.title,
    description: milestone.description,
    creator: userJson(core, milestone.creator),
    open_issues: counts.open,
    closed_issues: counts.closed,
    created_at: milestone.createdAt,
    updated_at: milestone.updatedAt,
    closed_at: milestone.closedAt,
    due_on: milestone.dueOn,
  };
}

export function reactionRollup(
  repo: Repo,
  url: string,
  subject: Reaction["subject"],
): Record<string, unknown> {
  const rollup: Record<string, number | string> = {
    url,
    total_count: 0,
    "+1": 0,
    "-1": 0,
    laugh: 0,
    hooray: 0,
    confused: 0,
    heart: 0,
    rocket: 0,
    eyes: 0,
  };
  for (const reaction of repo.reactions) {
    const same =
      reaction.subject.kind === subject.kind &&
      (reaction.subject.kind === "issue"
        ? subject.kind === "issue" && reaction.subject.number === subject.number
        : subject.kind === "comment" && reaction.subject.id === subject.id);
    if (!same) continue;
    rollup.total_count = Number(rollup.total_count) + 1;
    rollup[reaction.content] = Number(rollup[reaction.content]) + 1;
  }
  return rollup;
}

export function issueJson(core: SimCore, repo: Repo, issue: Issue): Record<string, unknown> {
  const url = `${repoApi(core, repo)}/issues/${issue.number}`;
  const web = `${repoWeb(core, repo)}/${issue.pull ? "pull" : "issues"}/${issue.number}`;
  const milestone = milestoneById(repo, issue.milestoneId);
  const assignees = issue.assignees.map((login) => userJson(core, login));
  const json: Record<string, unknown> = {
    id: issue.id,
    node_id: nodeId(issue.pull ? "PR" : "I", issue.id),
    url,
    repository_url: repoApi(core, repo),
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: web,
    number: issue.number,
    state: issue.state,
    state_reason: issue.stateReason,
    title: issue.title,
    body: issue.body,
    user: userJson(core, issue.author),
    labels: issueLabels(repo, issue).map((label) => labelJson(core, repo, label)),
    assignee: assignees[0] ?? null,
    assignees,
    milestone: milestone ? milestoneJson(core, repo, milestone) : null,
    locked: issue.locked,
    active_lock_reason: null,
    comments: repo.comments.filter((comment) => comment.issueNumber === issue.number).length,
    closed_at: issue.closedAt,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_by: issue.closedBy ? userJson(core, issue.closedBy) : null,
    author_association: authorAssociation(repo, issue.author),
    reactions: reactionRollup(repo, `${url}/reactions`, { kind: "issue", number: issue.number }),
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
  };
  json.draft = false;
  if (issue.pull) {
    const pullUrl = `${repoApi(core, repo)}/pulls/${issue.number}`;
    json.draft = issue.pull.draft;
    json.pull_request = {
      url: pullUrl,
      html_url: web,
      diff_url: `${web}.diff`,
      patch_url: `${web}.patch`,
      merged_at: issue.pull.mergedAt,
    };
  }
  return json;
}

export function commentJson(core: SimCore, repo: Repo, comment: IssueComment): Record<string, unknown> {
  const url = `${repoApi(core, repo)}/issues/comments/${comment.id}`;
  const issue = repo.issues.get(comment.issueNumber);
  const kind = issue?.pull ? "pull" : "issues";
  return {
    id: comment.id,
    node_id: nodeId("IC", comment.id),
    url,
    html_url: `${repoWeb(core, repo)}/${kind}/${comment.issueNumber}#issuecomment-${comment.id}`,
    body: comment.body,
    user: userJson(core, comment.author),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    issue_url: `${repoApi(core, repo)}/issues/${comment.issueNumber}`,
    author_association: authorAssociation(repo, comment.author),
    performed_via_github_app: null,
    reactions: reactionRollup(repo, `${url}/reactions`, { kind: "comment", id: comment.id }),
  };
}

export function reactionJson(core: SimCore, reaction: Reaction): Record<string, unknown> {
  return {
    id: reaction.id,
    node_id: nodeId("REA", reaction.id),
    user: userJson(core, reaction.user),
    content: reaction.content,
    created_at: reaction.createdAt,
  };
}
