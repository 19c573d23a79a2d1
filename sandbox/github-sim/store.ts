import type {
  AppInfo,
  Installation,
  Issue,
  Label,
  Milestone,
  Permission,
  Repo,
  Store,
  User,
  UserType,
} from "./model.ts";
import { ACTIONS_BOT, isoNow, repoKey } from "./model.ts";

export interface StoreOptions {
  app: AppInfo;
  now: () => Date;
}

export function createStore(options: StoreOptions): Store {
  let id = 1000;
  const store: Store = {
    app: options.app,
    users: new Map(),
    repos: new Map(),
    installations: new Map(),
    tokens: new Map(),
    permissionViolations: [],
    advisories: [],
    now: options.now,
    nextId: () => ++id,
  };
  ensureUser(store, options.app.ownerLogin);
  ensureUser(store, options.app.botLogin, "Bot");
  return store;
}

export function ensureUser(store: Store, login: string, type: UserType = "User"): User {
  const existing = store.users.get(login.toLowerCase());
  if (existing) return existing;
  const user: User = { id: store.nextId(), login, type, name: null, email: null, createdAt: isoNow(store) };
  store.users.set(login.toLowerCase(), user);
  return user;
}

export function findUser(store: Store, login: string): User | undefined {
  return store.users.get(login.toLowerCase());
}

export function findRepo(store: Store, owner: string, name: string): Repo | undefined {
  return store.repos.get(repoKey(owner, name));
}

export function installationFor(store: Store, account: string): Installation | undefined {
  for (const installation of store.installations.values()) {
    if (installation.account.toLowerCase() === account.toLowerCase()) return installation;
  }
  return undefined;
}

export function permissionOf(store: Store, repo: Repo, login: string): Permission {
  if (login.toLowerCase() === repo.owner.toLowerCase()) return "admin";
  // The app's bot acts with the installation's permissions: write on every repository it is installed on.
  if (login === store.app.botLogin && installationFor(store, repo.owner)) return "write";
  // A job's GITHUB_TOKEN writes to its own repository, within its permissions (its only repository: http-handler.ts).
  if (login === ACTIONS_BOT) return "write";
  const explicit = repo.collaborators.get(login.toLowerCase());
  if (explicit) return explicit;
  return repo.isPrivate ? "none" : "read";
}

const rank: Record<Permission, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

export function hasPermission(actual: Permission, needed: Permission): boolean {
  return rank[actual] >= rank[needed];
}

export function findLabel(repo: Repo, name: string): Label | undefined {
  return repo.labels.find((label) => label.name.toLowerCase() === name.toLowerCase());
}

export function ensureLabel(store: Store, repo: Repo, name: string): Label {
  const existing = findLabel(repo, name);
  if (existing) return existing;
  // GitHub gives labels created implicitly (by labelling an issue) the default grey colour.
  const label: Label = { id: store.nextId(), name, color: "ededed", description: null, isDefault: false };
  repo.labels.push(label);
  return label;
}

export function findMilestone(repo: Repo, number: number): Milestone | undefined {
  return repo.milestones.find((milestone) => milestone.number === number);
}

export function milestoneById(repo: Repo, id: number | null): Milestone | undefined {
  return id === null ? undefined : repo.milestones.find((milestone) => milestone.id === id);
}

export function issueLabels(repo: Repo, issue: Issue): Label[] {
  return issue.labelIds.flatMap((labelId) => repo.labels.filter((label) => label.id === labelId));
}

export function milestoneCounts(repo: Repo, milestone: Milestone): { open: number; closed: number } {
  let open = 0;
  let closed = 0;
  for (const issue of repo.issues.values()) {
    if (issue.milestoneId !== milestone.id) continue;
    if (issue.state === "open") open += 1;
    else closed += 1;
  }
  return { open, closed };
}
