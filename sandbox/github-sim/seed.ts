import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Actor, RequestContext, SimCore } from "./core.ts";
import { git, initBareRepository } from "./git.ts";
import type {
  Installation,
  Issue,
  IssueComment,
  Milestone,
  Permission,
  Repo,
  User,
  UserType,
} from "./model.ts";
import { isoNow, repoKey } from "./model.ts";
import { matchRoute } from "./router.ts";
import { routes } from "./routes.ts";
import { installationJson, repoJson } from "./serialize-repo.ts";
import { ensureLabel, ensureUser, findLabel, installationFor } from "./store.ts";

// Seeding goes through the same route handlers as HTTP (so state is shaped identically) but
// bypasses auth, rate limits and the request log, and sends webhooks only when asked.

export interface SeedActionOptions {
  // Acting user; defaults to the repository owner.
  as?: string;
  webhooks?: boolean;
}

export interface RepoSeedOptions {
  // An existing bare repository to serve; created (with `files` committed) when absent.
  gitDir?: string;
  defaultBranch?: string;
  files?: Record<string, string>;
  private?: boolean;
  description?: string;
  // Install the app on the owner's account (silently) unless false.
  install?: boolean;
}

export interface RepoSeeder {
  readonly repo: Repo;
  readonly gitDir: string;
  collaborator: (login: string, permission: Permission) => RepoSeeder;
  label: (name: string, options?: { color?: string; description?: string }) => RepoSeeder;
  milestone: (
    input: { title: string; description?: string; state?: "open" | "closed" },
    options?: SeedActionOptions,
  ) => Promise<Milestone>;
  issue: (
    input: {
      title: string;
      body?: string;
      labels?: string[];
      milestone?: number;
      assignees?: string[];
      state?: "open" | "closed";
    },
    options?: SeedActionOptions,
  ) => Promise<Issue>;
  comment: (issueNumber: number, body: string, options?: SeedActionOptions) => Promise<IssueComment>;
  pull: (
    input: { title: string; head: string; base?: string; body?: string; draft?: boolean },
    options?: SeedActionOptions,
  ) => Promise<Issue>;
}

export interface Seeder {
  user: (login: string, type?: UserType) => User;
  installation: (account: string, options?: { webhooks?: boolean }) => Installation;
  repo: (fullName: string, options?: RepoSeedOptions) => Promise<RepoSeeder>;
}

export function createSeeder(core: SimCore, workDir: string): Seeder {
  async function invoke(
    method: string,
    path: string,
    body: unknown,
    login: string,
    webhooks: boolean,
  ): Promise<unknown> {
    const match = matchRoute(routes, method, path);
    if (!match || match === "method-not-allowed") throw new Error(`seed: no route for ${method} ${path}`);
    const actor: Actor = { user: ensureUser(core.store, login), token: null };
    const ctx: RequestContext = {
      core: webhooks ? core : { ...core, emit: () => undefined },
      method,
      path,
      params: match.params,
      query: new URLSearchParams(),
      body,
      headers: {},
      actor,
      requestBase: core.urls.api,
    };
    return (await match.route.handler(ctx)).body;
  }

  function installation(account: string, options: { webhooks?: boolean } = {}): Installation {
    const existing = installationFor(core.store, account);
    if (existing) return existing;
    ensureUser(core.store, account);
    const created: Installation = { id: core.store.nextId(), account, createdAt: isoNow(core.store) };
    core.store.installations.set(created.id, created);
    if (options.webhooks) {
      const sender = ensureUser(core.store, account);
      const repositories = [...core.store.repos.values()]
        .filter((repo) => repo.owner.toLowerCase() === account.toLowerCase())
        .map((repo) => ({
          id: repo.id,
          node_id: repoJson(core, repo).node_id,
          name: repo.name,
          full_name: `${repo.owner}/${repo.name}`,
          private: repo.isPrivate,
        }));
      core.emit(
        "installation",
        { action: "created", installation: installationJson(core, created), repositories, requester: null },
        { repo: null, sender },
      );
    }
    return created;
  }

  async function repo(fullName: string, options: RepoSeedOptions = {}): Promise<RepoSeeder> {
    const [owner = "", name = ""] = fullName.split("/");
    if (!owner || !name) throw new Error(`seed: expected owner/name, got ${fullName}`);
    if (core.store.repos.has(repoKey(owner, name))) throw new Error(`seed: ${fullName} already exists`);
    ensureUser(core.store, owner);
    const gitDir = options.gitDir ?? join(workDir, owner, `${name}.git`);
    let defaultBranch = options.defaultBranch ?? "main";
    if (existsSync(gitDir)) {
      if (!options.defaultBranch)
        defaultBranch = (await git(gitDir, ["symbolic-ref", "--short", "HEAD"])).trim() || "main";
    } else {
      await initBareRepository(gitDir, defaultBranch, options.files ?? { "README.md": `# ${name}\n` }, {
        name: owner,
        email: `${owner}@users.noreply.github.com`,
      });
    }
    const record: Repo = {
      id: core.store.nextId(),
      owner,
      name,
      gitDir,
      defaultBranch,
      isPrivate: options.private ?? false,
      description: options.description ?? null,
      createdAt: isoNow(core.store),
      labels: [],
      issues: new Map(),
      milestones: [],
      comments: [],
      reactions: [],
      reviews: [],
      reviewComments: [],
      workflows: [],
      runs: [],
      collaborators: new Map(),
      nextIssueNumber: 1,
      nextMilestoneNumber: 1,
    };
    core.store.repos.set(repoKey(owner, name), record);
    if (options.install !== false) installation(owner);
    const base = `/repos/${owner}/${name}`;
    const who = (options?: SeedActionOptions): string => options?.as ?? owner;
    const seeder: RepoSeeder = {
      repo: record,
      gitDir,
      collaborator(login, permission) {
        ensureUser(core.store, login);
        record.collaborators.set(login.toLowerCase(), permission);
        return seeder;
      },
      label(labelName, labelOptions = {}) {
        const label = findLabel(record, labelName) ?? ensureLabel(core.store, record, labelName);
        if (labelOptions.color) label.color = labelOptions.color.replace(/^#/, "");
        if (labelOptions.description !== undefined) label.description = labelOptions.description;
        return seeder;
      },
      async milestone(input, actionOptions) {
        const json = (await invoke(
          "POST",
          `${base}/milestones`,
          input,
          who(actionOptions),
          actionOptions?.webhooks ?? false,
        )) as { number: number };
        const milestone = record.milestones.find((candidate) => candidate.number === json.number);
        if (!milestone) throw new Error("seed: milestone not created");
        return milestone;
      },
      async issue(input, actionOptions) {
        const { state, ...fields } = input;
        const json = (await invoke(
          "POST",
          `${base}/issues`,
          fields,
          who(actionOptions),
          actionOptions?.webhooks ?? false,
        )) as { number: number };
        if (state === "closed")
          await invoke(
            "PATCH",
            `${base}/issues/${json.number}`,
            { state },
            who(actionOptions),
            actionOptions?.webhooks ?? false,
          );
        const issue = record.issues.get(json.number);
        if (!issue) throw new Error("seed: issue not created");
        return issue;
      },
      async comment(issueNumber, body, actionOptions) {
        const json = (await invoke(
          "POST",
          `${base}/issues/${issueNumber}/comments`,
          { body },
          who(actionOptions),
          actionOptions?.webhooks ?? false,
        )) as { id: number };
        const comment = record.comments.find((candidate) => candidate.id === json.id);
        if (!comment) throw new Error("seed: comment not created");
        return comment;
      },
      async pull(input, actionOptions) {
        const body = { base: record.defaultBranch, ...input };
        const json = (await invoke(
          "POST",
          `${base}/pulls`,
          body,
          who(actionOptions),
          actionOptions?.webhooks ?? false,
        )) as { number: number };
        const issue = record.issues.get(json.number);
        if (!issue) throw new Error("seed: pull request not created");
        return issue;
      },
    };
    return seeder;
  }

  return { user: (login, type = "User") => ensureUser(core.store, login, type), installation, repo };
}
