// The simulator's in-memory state. Git data (branches, commits, files) is not
// here: it lives in each repository's bare git directory and is read on demand.

export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";
export type UserType = "User" | "Bot" | "Organization";

export interface User {
  id: number;
  login: string;
  type: UserType;
  name: string | null;
  email: string | null;
  createdAt: string;
}

export interface Label {
  id: number;
  name: string;
  color: string;
  description: string | null;
  isDefault: boolean;
}

export interface Milestone {
  id: number;
  number: number;
  title: string;
  description: string | null;
  state: "open" | "closed";
  creator: string;
  dueOn: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface PullData {
  head: string;
  base: string;
  draft: boolean;
  merged: boolean;
  mergedAt: string | null;
  mergedBy: string | null;
  mergeCommitSha: string | null;
  // Head sha at merge/close time so a closed PR keeps its shape after the branch is deleted.
  headShaAtClose: string | null;
  maintainerCanModify: boolean;
  /**
   * The fork ("owner/name", seeded in the store) holding the head branch, absent for this
   * repository's. Its commits stay in this repository's git, as GitHub keeps a pull ref.
   */
  headRepository?: string;
}

export interface Issue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  stateReason: "completed" | "not_planned" | "reopened" | null;
  author: string;
  labelIds: number[];
  milestoneId: number | null;
  assignees: string[];
  locked: boolean;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedBy: string | null;
  pull: PullData | null;
  /** The body's revisions, oldest first, once it has been edited (GraphQL `userContentEdits`). */
  edits?: ContentEdit[];
  /** Label, milestone and title changes, oldest first (the events of GraphQL `timelineItems`). */
  events?: IssueEvent[];
}

/**
 * One event of an issue's timeline, as GitHub records it: who did what, when.
 * https://docs.github.com/en/rest/using-the-rest-api/issue-event-types
 */
export type IssueEvent = { readonly actor: string; readonly createdAt: string } & IssueChange;

export type IssueChange =
  | { readonly kind: "labeled" | "unlabeled"; readonly label: string }
  | { readonly kind: "milestoned" | "demilestoned"; readonly milestoneTitle: string }
  | { readonly kind: "renamed"; readonly previousTitle: string; readonly currentTitle: string };

export interface IssueComment {
  id: number;
  issueNumber: number;
  body: string;
  author: string;
  createdAt: string;
  updatedAt: string;
  /** The body's revisions, oldest first, once it has been edited (GraphQL `userContentEdits`). */
  edits?: ContentEdit[];
}

/** One revision of an issue's or comment's body, as GitHub keeps it: the whole text, not a diff. */
export interface ContentEdit {
  editedAt: string;
  editor: string;
  body: string | null;
  /** Set when someone deleted this revision from the history: GitHub then shows no text for it. */
  deletedAt?: string;
}

export type ReactionContent = "+1" | "-1" | "laugh" | "confused" | "heart" | "hooray" | "rocket" | "eyes";

export interface Reaction {
  id: number;
  subject: { kind: "issue"; number: number } | { kind: "comment"; id: number };
  content: ReactionContent;
  user: string;
  createdAt: string;
}

export type ReviewState = "COMMENTED" | "APPROVED" | "CHANGES_REQUESTED";

export interface Review {
  id: number;
  pullNumber: number;
  author: string;
  body: string;
  state: ReviewState;
  commitId: string;
  submittedAt: string;
  /** The body's revisions, oldest first, once it has been edited (GraphQL `userContentEdits`). */
  edits?: ContentEdit[];
}

export type DiffSide = "LEFT" | "RIGHT";

export interface ReviewComment {
  id: number;
  reviewId: number;
  pullNumber: number;
  path: string;
  line: number;
  side: DiffSide;
  // Line index below the file's first hunk header (GitHub's legacy "position").
  position: number;
  body: string;
  author: string;
  commitId: string;
  diffHunk: string;
  inReplyTo: number | null;
  // On a thread's first comment: the thread's resolution, and who resolved it.
  resolved: boolean;
  resolvedBy?: string;
  createdAt: string;
  updatedAt: string;
  /** The body's revisions, oldest first, once it has been edited (GraphQL `userContentEdits`). */
  edits?: ContentEdit[];
}

export type RunStatus = "queued" | "in_progress" | "completed";
export type RunConclusion = "success" | "failure" | "cancelled" | "skipped" | "timed_out" | "neutral";

export interface WorkflowRun {
  id: number;
  runNumber: number;
  workflowId: number;
  workflowPath: string;
  name: string;
  displayTitle: string;
  // Locus's runs are dispatched; CI runs start on a push or a pull request.
  event: "workflow_dispatch" | "push" | "pull_request";
  status: RunStatus;
  conclusion: RunConclusion | null;
  headBranch: string;
  headSha: string;
  inputs: Record<string, string>;
  actor: string;
  createdAt: string;
  updatedAt: string;
  runStartedAt: string;
  /** The run's concurrency group, when its workflow has one (concurrency.ts). */
  concurrency?: { readonly group: string; readonly cancelInProgress: boolean };
}

export interface Workflow {
  id: number;
  name: string;
  path: string;
}

export interface Repo {
  id: number;
  owner: string;
  name: string;
  gitDir: string;
  defaultBranch: string;
  isPrivate: boolean;
  description: string | null;
  createdAt: string;
  labels: Label[];
  issues: Map<number, Issue>;
  milestones: Milestone[];
  comments: IssueComment[];
  reactions: Reaction[];
  reviews: Review[];
  reviewComments: ReviewComment[];
  workflows: Workflow[];
  runs: WorkflowRun[];
  collaborators: Map<string, Permission>;
  nextIssueNumber: number;
  nextMilestoneNumber: number;
  /** A private repository's dependency review needs GitHub Advanced Security; a public one always has it. */
  advancedSecurity?: boolean;
  /** Commits GitHub made and signed itself (`createCommitOnBranch`): Verified in the commit API. */
  verifiedCommits?: Set<string>;
  /** The repository's rulesets; a push that breaks an active one is refused (git-rules.ts). */
  rulesets?: Ruleset[];
  /** Secret scanning's push protection: a push that adds a known token format is refused. */
  pushProtection?: boolean;
}

/**
 * A branch ruleset, in the shape of GitHub's REST API (the rules the simulator enforces only).
 * https://docs.github.com/en/rest/repos/rules
 */
export interface Ruleset {
  readonly name: string;
  readonly enforcement: "active" | "disabled" | "evaluate";
  /** Ref patterns: `~ALL`, `~DEFAULT_BRANCH`, or fnmatch patterns such as `refs/heads/locus/*`. */
  readonly conditions: { readonly ref_name: { readonly include: string[]; readonly exclude: string[] } };
  readonly rules: readonly { readonly type: "required_signatures" }[];
}

/** A simulated entry of GitHub's advisory database: these exact versions of an npm package are vulnerable. */
export interface Advisory {
  readonly ghsaId: string;
  readonly ecosystem: "npm";
  readonly name: string;
  readonly versions: readonly string[];
  readonly severity: "low" | "moderate" | "high" | "critical";
  readonly summary: string;
}

export interface Installation {
  id: number;
  account: string;
  createdAt: string;
}

// "workflow": a workflow job's GITHUB_TOKEN (workflow-token.ts), acting as ACTIONS_BOT.
export type TokenKind = "installation" | "user" | "workflow";

/** The identity of a workflow job's GITHUB_TOKEN. */
export const ACTIONS_BOT = "github-actions[bot]";

export interface TokenRecord {
  token: string;
  kind: TokenKind;
  login: string;
  installationId: number | null;
  expiresAt: string | null;
  /** An installation token's permissions (the app's grant or a narrower set); null for a person's token. */
  permissions: Readonly<Record<string, "read" | "write">> | null;
  /** A workflow job's token reaches only its own repository (`owner/name`, lower case). */
  repository?: string;
}

export interface AppInfo {
  id: number;
  slug: string;
  name: string;
  ownerLogin: string;
  botLogin: string;
  /** What an installation is granted: the manifest's `default_permissions` plus `metadata: read`. */
  permissions: Readonly<Record<string, "read" | "write">>;
  /** The manifest's `default_events`. */
  events: readonly string[];
}

/**
 * A call an installation token made that GitHub would refuse for its
 * permissions: a route GitHub's permission data does not list ("unlisted"),
 * or one the token's permissions do not cover ("refused", `needed` as in
 * `x-accepted-github-permissions`). Tests of Locus assert there are none.
 */
export interface PermissionViolation {
  kind: "unlisted" | "refused";
  /** `METHOD /route/{template}`, or `graphql <field>`. */
  route: string;
  login: string;
  needed: string;
}

export interface Store {
  app: AppInfo;
  users: Map<string, User>;
  repos: Map<string, Repo>;
  installations: Map<number, Installation>;
  tokens: Map<string, TokenRecord>;
  permissionViolations: PermissionViolation[];
  /** The advisory database the dependency review matches against. */
  advisories: Advisory[];
  now: () => Date;
  nextId: () => number;
}

export function repoKey(owner: string, name: string): string {
  return `${owner}/${name}`.toLowerCase();
}

// GitHub timestamps are second precision with a Z suffix.
export function isoNow(store: Store): string {
  return store
    .now()
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z");
}
