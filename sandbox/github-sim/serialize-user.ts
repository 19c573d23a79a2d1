import type { SimCore } from "./core.ts";
import type { Repo, User } from "./model.ts";
import { ensureUser } from "./store.ts";

export function nodeId(prefix: string, id: number): string {
  return `${prefix}_${Buffer.from(`sim:${id}`).toString("base64url")}`;
}

export function userJson(core: SimCore, login: string): Record<string, unknown> {
  const user: User = ensureUser(core.store, login);
  const url = `${core.urls.api}/users/${encodeURIComponent(user.login)}`;
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId(user.type === "Bot" ? "BOT" : "U", user.id),
    avatar_url: `${core.urls.web}/avatars/${encodeURIComponent(user.login)}`,
    gravatar_id: "",
    url,
    html_url: `${core.urls.web}/${user.type === "Bot" ? "apps/" : ""}${encodeURIComponent(user.login.replace(/\[bot\]$/, ""))}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: user.type,
    user_view_type: "public",
    site_admin: false,
  };
}

export function authorAssociation(repo: Repo, login: string): string {
  if (login.toLowerCase() === repo.owner.toLowerCase()) return "OWNER";
  if (repo.collaborators.has(login.toLowerCase())) return "COLLABORATOR";
  return "NONE";
}
