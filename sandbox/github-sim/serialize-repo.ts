import type { SimCore } from "./core.ts";
import type { Installation, Repo } from "./model.ts";
import { nodeId, userJson } from "./serialize-user.ts";

function repoUrls(core: SimCore, repo: Repo): Record<string, string> {
  const url = `${core.urls.api}/repos/${repo.owner}/${repo.name}`;
  const templated: Record<string, string> = {
    archive_url: "/{archive_format}{/ref}",
    assignees_url: "/assignees{/user}",
    blobs_url: "/git/blobs{/sha}",
    branches_url: "/branches{/branch}",
    collaborators_url: "/collaborators{/collaborator}",
    comments_url: "/comments{/number}",
    commits_url: "/commits{/sha}",
    compare_url: "/compare/{base}...{head}",
    contents_url: "/contents/{+path}",
    contributors_url: "/contributors",
    deployments_url: "/deployments",
    downloads_url: "/downloads",
    events_url: "/events",
    forks_url: "/forks",
    git_commits_url: "/git/commits{/sha}",
    git_refs_url: "/git/refs{/sha}",
    git_tags_url: "/git/tags{/sha}",
    hooks_url: "/hooks",
    issue_comment_url: "/issues/comments{/number}",
    issue_events_url: "/issues/events{/number}",
    issues_url: "/issues{/number}",
    keys_url: "/keys{/key_id}",
    labels_url: "/labels{/name}",
    languages_url: "/languages",
    merges_url: "/merges",
    milestones_url: "/milestones{/number}",
    notifications_url: "/notifications{?since,all,participating}",
    pulls_url: "/pulls{/number}",
    releases_url: "/releases{/id}",
    stargazers_url: "/stargazers",
    statuses_url: "/statuses/{sha}",
    subscribers_url: "/subscribers",
    subscription_url: "/subscription",
    tags_url: "/tags",
    teams_url: "/teams",
    trees_url: "/git/trees{/sha}",
  };
  const urls: Record<string, string> = { url };
  for (const [key, suffix] of Object.entries(templated)) urls[key] = `${url}${suffix}`;
  return urls;
}

export function minimalRepoJson(core: SimCore, repo: Repo): Record<string, unknown> {
  return {
    id: repo.id,
    node_id: nodeId("R", repo.id),
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    private: repo.isPrivate,
    owner: userJson(core, repo.owner),
    html_url: `${core.urls.web}/${repo.owner}/${repo.name}`,
    description: repo.description,
    fork: false,
    ...repoUrls(core, repo),
  };
}

export function repoJson(core: SimCore, repo: Repo): Record<string, unknown> {
  const openIssues = [...repo.issues.values()].filter((issue) => issue.state === "open").length;
  const cloneUrl = `${core.urls.web}/${repo.owner}/${repo.name}.git`;
  return {
    ...minimalRepoJson(core, repo),
    clone_url: cloneUrl,
    git_url: cloneUrl.replace(/^https?:/, "git:"),
    ssh_url: `git@127.0.0.1:${repo.owner}/${repo.name}.git`,
    svn_url: `${core.urls.web}/${repo.owner}/${repo.name}`,
    mirror_url: null,
    homepage: null,
    language: null,
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    size: 0,
    default_branch: repo.defaultBranch,
    open_issues: openIssues,
    open_issues_count: openIssues,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: repo.isPrivate ? "private" : "public",
    pushed_at: repo.createdAt,
    created_at: repo.createdAt,
    updated_at: repo.createdAt,
    allow_forking: true,
    web_commit_signoff_required: false,
    license: null,
    custom_properties: {},
    network_count: 0,
    subscribers_count: 0,
  };
}

export function installationJson(core: SimCore, installation: Installation): Record<string, unknown> {
  const { app } = core.store;
  return {
    id: installation.id,
    account: userJson(core, installation.account),
    access_tokens_url: `${core.urls.api}/app/installations/${installation.id}/access_tokens`,
    repositories_url: `${core.urls.api}/installation/repositories`,
    html_url: `${core.urls.web}/settings/installations/${installation.id}`,
    app_id: app.id,
    app_slug: app.slug,
    client_id: `Iv1.sim${app.id}`,
    target_id: core.store.users.get(installation.account.toLowerCase())?.id ?? 0,
    target_type: "User",
    permissions: app.permissions,
    events: app.events,
    created_at: installation.createdAt,
    updated_at: installation.createdAt,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    repository_selection: "all",
    suspended_at: null,
    suspended_by: null,
  };
}
