import { GraphQLError } from "graphql";
import type { SimCore } from "./core.ts";
import { closingIssues } from "./closing-keywords.ts";
import { branchSha, commitInfo, readPath, resolveCommit } from "./git.ts";
import { resourceNode } from "./graphql-resource.ts";
import type {
  ContentEdit,
  Issue,
  IssueComment,
  Milestone,
  Repo,
  ReviewComment,
  TokenRecord,
  User,
} from "./model.ts";
import type { Bucket } from "./rate-limit.ts";
import { timelineItems } from "./graphql-timeline.ts";
import { authorAssociation, nodeId } from "./serialize-user.ts";
import { ensureUser, findMilestone, findRepo, issueLabels, milestoneById, permissionOf } from "./store.ts";

// Plain objects whose properties are named after GraphQL fields; graphql-js's default resolver
// reads them, calling function properties with the field's arguments.

export interface GraphqlContext {
  core: SimCore;
  viewer: User;
  bucket: Bucket;
  /** The request's cost by GitHub's formula (graphql-cost.ts); 1 when not given. */
  cost?: number;
  /** The token the request came with; null for an app's JWT. */
  token?: TokenRecord | null;
}

type Args = Record<string, unknown>;

function encodeCursor(index: number): string {
  return Buffer.from(`cursor:v2:${index}`).toString("base64");
}

function decodeCursor(cursor: unknown): number {
  if (typeof cursor !== "string") return -1;
  const match = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
  if (!match)
    throw new GraphQLError(`\`${cursor}\` does not appear to be a valid cursor.`, {
      extensions: { type: "INVALID_CURSOR_ARGUMENTS" },
    });
  return Number(match[1]);
}

// GitHub's connection rules: first or last is mandatory and at most 100.
function connection<T>(
  name: string,
  items: T[],
  args: Args,
  render: (item: T) => unknown,
): Record<string, unknown> {
  const first = typeof args.first === "number" ? args.first : undefined;
  const last = typeof args.last === "number" ? args.last : undefined;
  if (first === undefined && last === undefined) {
    throw new GraphQLError(
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
      { extensions: { type: "MISSING_PAGINATION_BOUNDARIES" } },
    );
  }
  for (const [label, value] of [
    ["first", first],
    ["last", last],
  ] as const) {
    if (value !== undefined && (value < 0 || value > 100)) {
      throw new GraphQLError(
        `Requesting ${value} records on the \`${name}\` connection exceeds the \`${label}\` limit of 100 records.`,
        { extensions: { type: "EXCESSIVE_PAGINATION" } },
      );
    }
  }
  let start = args.after === undefined || args.after === null ? 0 : decodeCursor(args.after) + 1;
  let end = args.before === undefined || args.before === null ? items.length : decodeCursor(args.before);
  if (first !== undefined) end = Math.min(end, start + first);
  if (last !== undefined) start = Math.max(start, end - last);
  const slice = items.slice(start, end).map((item, offset) => ({ item, index: start + offset }));
  return {
    totalCount: items.length,
    nodes: slice.map(({ item }) => render(item)),
    edges: slice.map(({ item, index }) => ({ cursor: encodeCursor(index), node: render(item) })),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: slice.length > 0 ? encodeCursor(start) : null,
      endCursor: slice.length > 0 ? encodeCursor(end - 1) : null,
    },
  };
}

function actorNode(core: SimCore, login: string): Record<string, unknown> {
  const user = ensureUser(core.store, login);
  return {
    __typename: user.type === "Bot" ? "Bot" : "User",
    id: nodeId(user.type === "Bot" ? "BOT" : "U", user.id),
    databaseId: user.id,
    login: user.type === "Bot" ? user.login.replace(/\[bot\]$/, "") : user.login,
    url: `${core.urls.web}/${user.login}`,
    avatarUrl: `${core.urls.web}/avatars/${user.login}`,
    name: user.name,
  };
}

// GitHub answers a number that names nothing with an error beside the null, not with a bare null.
function notFoundByNumber(kind: string, number: unknown): GraphQLError {
  return new GraphQLError(`Could not resolve to ${kind} with the number of ${String(number)}.`, {
    extensions: { type: "NOT_FOUND" },
  });
}

function upper(state: string): string {
  return state.toUpperCase();
}

function stateFilter(args: Args): string[] | null {
  return Array.isArray(args.states) && args.states.length > 0 ? args.states.map(String) : null;
}

// `labels:` on an issue or pull request connection keeps those carrying any of the names.
function labelFilter(args: Args): string[] | null {
  return Array.isArray(args.labels) ? args.labels.map(String) : null;
}

function hasAnyLabel(repo: Repo, issue: Issue, labels: string[] | null): boolean {
  return !labels || issueLabels(repo, issue).some((label) => labels.includes(label.name));
}

function labelsConnection(repo: Repo, issue: Issue, args: Args): Record<string, unknown> {
  return connection("labels", issueLabels(repo, issue), args, (label) => ({
    id: nodeId("LA", label.id),
    name: label.name,
    color: label.color,
    description: label.description,
    isDefault: label.isDefault,
  }));
}

// GitHub's edit history (`UserContentEditable`): newest revision first, each with the whole text
// in `diff`; once edited, the first revision is the text as created (`includesCreatedEdit`).
function editableFields(
  core: SimCore,
  target: { author: string; edits?: ContentEdit[] },
  kind: "I" | "IC" | "PRR" | "PRRC",
  id: number,
): Record<string, unknown> {
  const edits = target.edits ?? [];
  return {
    lastEditedAt: edits.at(-1)?.editedAt ?? null,
    includesCreatedEdit: edits.length > 0,
    viewerDidAuthor: (_args: Args, context: GraphqlContext) =>
      context.viewer.login.toLowerCase() === target.author.toLowerCase(),
    userContentEdits: (args: Args) =>
      connection(
        "userContentEdits",
        edits.map((edit, index) => ({ edit, index })).reverse(),
        args,
        ({ edit, index }) => ({
          id: nodeId(`UCE_${kind}`, id * 1000 + index),
          createdAt: edit.editedAt,
          updatedAt: edit.editedAt,
          editedAt: edit.editedAt,
          deletedAt: edit.deletedAt ?? null,
          deletedBy: null,
          diff: edit.deletedAt ? null : edit.body,
          editor: actorNode(core, edit.editor),
        }),
      ),
  };
}

export function commentNode(core: SimCore, repo: Repo, comment: IssueComment): Record<string, unknown> {
  return {
    id: nodeId("IC", comment.id),
    databaseId: comment.id,
    body: comment.body,
    author: actorNode(core, comment.author),
    authorAssociation: authorAssociation(repo, comment.author),
    createdAt: comment.createdAt,
    updatedAt: comment.updatedAt,
    ...editableFields(core, comment, "IC", comment.id),
    url: `${core.urls.web}/${repo.owner}/${repo.name}/issues/${comment.issueNumber}#issuecomment-${comment.id}`,
  };
}

function issueFields(core: SimCore, repo: Repo, issue: Issue): Record<string, unknown> {
  const milestone = milestoneById(repo, issue.milestoneId);
  return {
    id: nodeId(issue.pull ? "PR" : "I", issue.id),
    databaseId: issue.id,
    number: issue.number,
    title: issue.title,
    body: issue.body ?? "",
    url: `${core.urls.web}/${repo.owner}/${repo.name}/${issue.pull ? "pull" : "issues"}/${issue.number}`,
    createdAt: issue.createdAt,
    updatedAt: issue.updatedAt,
    ...editableFields(core, issue, "I", issue.id),
    closedAt: issue.closedAt,
    closed: issue.state === "closed",
    author: actorNode(core, issue.author),
    labels: (args: Args) => labelsConnection(repo, issue, args),
    milestone: milestone ? milestoneNode(core, repo, milestone) : null,
    assignees: (args: Args) =>
      connection("assignees", issue.assignees, args, (login) => actorNode(core, login)),
    comments: (args: Args) =>
      connection(
        "comments",
        repo.comments.filter((comment) => comment.issueNumber === issue.number),
        args,
        (comment) => commentNode(core, repo, comment),
      ),
  };
}

export function issueNode(core: SimCore, repo: Repo, issue: Issue): Record<string, unknown> {
  return {
    __typename: "Issue",
    ...issueFields(core, repo, issue),
    state: upper(issue.state),
    stateReason: issue.stateReason ? upper(issue.stateReason) : null,
    timelineItems: (args: Args) => {
      const items = timelineItems(core, repo, issue, args, {
        actor: (login) => actorNode(core, login),
        comment: (comment) => commentNode(core, repo, comment),
      });
      return connection("timelineItems", items, args, (item) => item.render());
    },
  };
}

export function reviewCommentNode(
  core: SimCore,
  repo: Repo,
  comment: ReviewComment,
): Record<string, unknown> {
  return {
    id: nodeId("PRRC", comment.id),
    databaseId: comment.id,
    body: comment.body,
    path: comment.path,
    line: comment.line,
    originalLine: comment.line,
    diffHunk: comment.diffHunk,
    author: actorNode(core, comment.author),
    authorAssociation: authorAssociation(repo, comment.author),
    createdAt: comment.createdAt,
    updatedAt: comment.updatedAt,
    ...editableFields(core, comment, "PRRC", comment.id),
    state: "SUBMITTED",
    url: `${core.urls.web}/${repo.owner}/${repo.name}/pull/${comment.pullNumber}#discussion_r${comment.id}`,
  };
}

async function lineAt(repo: Repo, commit: string, path: string, line: number): Promise<string | null> {
  const file = await readPath(repo.gitDir, commit, path).catch(() => null);
  if (file?.type !== "file") return null;
  return file.content.toString("utf8").split("\n")[line - 1] ?? null;
}

// GitHub maps a thread through later pushes and marks it outdated when its line changed; the
// simulator's approximation: the commented line reads differently at the head than where it was
// commented. Threads on the base side (LEFT) do not move with pushes to the head.
async function isOutdated(repo: Repo, head: string | null, root: ReviewComment): Promise<boolean> {
  if (root.side === "LEFT" || !head || head === root.commitId) return false;
  const [then, now] = await Promise.all([
    lineAt(repo, root.commitId, root.path, root.line),
    lineAt(repo, head, root.path, root.line),
  ]);
  return then !== now;
}

// A thread is its first comment and the replies to it; the resolution lives on the first comment.
export function reviewThreadNode(
  core: SimCore,
  repo: Repo,
  pull: Issue,
  root: ReviewComment,
): Record<string, unknown> {
  const head = pull.pull ? branchSha(repo.gitDir, pull.pull.head) : Promise.resolve(null);
  const outdated = head.then((sha) => isOutdated(repo, sha ?? pull.pull?.headShaAtClose ?? null, root));
  const canResolve = (context: GraphqlContext): boolean =>
    pull.author.toLowerCase() === context.viewer.login.toLowerCase() ||
    ["admin", "maintain", "write"].includes(permissionOf(core.store, repo, context.viewer.login));
  return {
    id: nodeId("PRRT", root.id),
    isResolved: root.resolved,
    isCollapsed: root.resolved,
    resolvedBy: root.resolved && root.resolvedBy ? actorNode(core, root.resolvedBy) : null,
    isOutdated: () => outdated,
    path: root.path,
    // An outdated thread has no line in the current diff, as on GitHub.
    line: async () => ((await outdated) ? null : root.line),
    originalLine: root.line,
    startLine: null,
    originalStartLine: null,
    diffSide: root.side,
    startDiffSide: null,
    subjectType: "LINE",
    viewerCanReply: (_args: Args, context: GraphqlContext) =>
      permissionOf(core.store, repo, context.viewer.login) !== "none",
    viewerCanResolve: (_args: Args, context: GraphqlContext) => !root.resolved && canResolve(context),
    viewerCanUnresolve: (_args: Args, context: GraphqlContext) => root.resolved && canResolve(context),
    comments: (args: Args) =>
      connection(
        "comments",
        repo.reviewComments.filter((comment) => comment.id === root.id || comment.inReplyTo === root.id),
        args,
        (comment) => reviewCommentNode(core, repo, comment),
      ),
  };
}

export function pullNode(core: SimCore, repo: Repo, issue: Issue): Record<string, unknown> {
  const pull = issue.pull;
  if (!pull) return issueNode(core, repo, issue);
  const threads = repo.reviewComments.filter(
    (comment) => comment.pullNumber === issue.number && comment.inReplyTo === null,
  );
  return {
    __typename: "PullRequest",
    ...issueFields(core, repo, issue),
    state: pull.merged ? "MERGED" : upper(issue.state),
    isDraft: pull.draft,
    merged: pull.merged,
    mergedAt: pull.mergedAt,
    headRefName: pull.head,
    baseRefName: pull.base,
    headRefOid: async () => (await branchSha(repo.gitDir, pull.head)) ?? pull.headShaAtClose,
    reviewThreads: (args: Args) =>
      connection("reviewThreads", threads, args, (root) => reviewThreadNode(core, repo, issue, root)),
    closingIssuesReferences: (args: Args) =>
      connection("closingIssuesReferences", closingIssues(repo, issue), args, (linked) =>
        issueNode(core, repo, linked),
      ),
    reviews: (args: Args) => {
      const states = stateFilter(args);
      const reviews = repo.reviews.filter(
        (review) => review.pullNumber === issue.number && (!states || states.includes(review.state)),
      );
      return connection("reviews", reviews, args, (review) => ({
        id: nodeId("PRR", review.id),
        databaseId: review.id,
        state: review.state,
        body: review.body,
        author: actorNode(core, review.author),
        authorAssociation: authorAssociation(repo, review.author),
        submittedAt: review.submittedAt,
        createdAt: review.submittedAt,
        // The REST API of the simulator cannot edit review bodies; a test may record edits.
        updatedAt: review.edits?.at(-1)?.editedAt ?? review.submittedAt,
        ...editableFields(core, review, "PRR", review.id),
        commit: { oid: review.commitId },
      }));
    },
  };
}

function milestoneNode(core: SimCore, repo: Repo, milestone: Milestone): Record<string, unknown> {
  const issuesOf = (args: Args, pulls: boolean): Issue[] => {
    const states = stateFilter(args);
    const labels = labelFilter(args);
    return [...repo.issues.values()]
      .filter((issue) => issue.milestoneId === milestone.id && Boolean(issue.pull) === pulls)
      .filter(
        (issue) => !states || states.includes(pulls && issue.pull?.merged ? "MERGED" : upper(issue.state)),
      )
      .filter((issue) => hasAnyLabel(repo, issue, labels))
      .sort((a, b) => a.number - b.number);
  };
  return {
    id: nodeId("MI", milestone.id),
    number: milestone.number,
    title: milestone.title,
    description: milestone.description,
    state: upper(milestone.state),
    closed: milestone.state === "closed",
    dueOn: milestone.dueOn,
    createdAt: milestone.createdAt,
    updatedAt: milestone.updatedAt,
    closedAt: milestone.closedAt,
    url: `${core.urls.web}/${repo.owner}/${repo.name}/milestone/${milestone.number}`,
    creator: actorNode(core, milestone.creator),
    issues: (args: Args) =>
      connection("issues", issuesOf(args, false), args, (issue) => issueNode(core, repo, issue)),
    pullRequests: (args: Args) =>
      connection("pullRequests", issuesOf(args, true), args, (issue) => pullNode(core, repo, issue)),
  };
}

export function labelNode(label: Repo["labels"][number]): Record<string, unknown> {
  return { id: nodeId("LA", label.id), name: label.name, color: label.color, description: label.description };
}

function repositoryNode(core: SimCore, repo: Repo): Record<string, unknown> {
  const all = (): Issue[] => [...repo.issues.values()].sort((a, b) => a.number - b.number);
  return {
    id: nodeId("R", repo.id),
    databaseId: repo.id,
    name: repo.name,
    nameWithOwner: `${repo.owner}/${repo.name}`,
    owner: actorNode(core, repo.owner),
    url: `${core.urls.web}/${repo.owner}/${repo.name}`,
    isPrivate: repo.isPrivate,
    defaultBranchRef: { name: repo.defaultBranch, prefix: "refs/heads/" },
    milestone: (args: Args) => {
      const milestone = findMilestone(repo, Number(args.number));
      return milestone ? milestoneNode(core, repo, milestone) : null;
    },
    milestones: (args: Args) => {
      const states = stateFilter(args);
      // Numbers are given in creation order, so `NUMBER` and `CREATED_AT` order alike.
      const byNumber = repo.milestones
        .filter((milestone) => !states || states.includes(upper(milestone.state)))
        .sort((a, b) => a.number - b.number);
      const descending = (args.orderBy as Args | undefined)?.direction === "DESC";
      return connection("milestones", descending ? byNumber.reverse() : byNumber, args, (milestone) =>
        milestoneNode(core, repo, milestone),
      );
    },
    issue: (args: Args) => {
      const issue = repo.issues.get(Number(args.number));
      if (!issue || issue.pull) throw notFoundByNumber("an Issue", args.number);
      return issueNode(core, repo, issue);
    },
    pullRequest: (args: Args) => {
      const issue = repo.issues.get(Number(args.number));
      if (!issue?.pull) throw notFoundByNumber("a PullRequest", args.number);
      return pullNode(core, repo, issue);
    },
    issueOrPullRequest: (args: Args) => {
      const issue = repo.issues.get(Number(args.number));
      if (!issue) throw notFoundByNumber("an issue or pull request", args.number);
      return issue.pull ? pullNode(core, repo, issue) : issueNode(core, repo, issue);
    },
    issues: (args: Args) => {
      const filterBy = (args.filterBy ?? {}) as Args;
      const states = stateFilter(args) ?? stateFilter(filterBy);
      const labels = labelFilter(args) ?? labelFilter(filterBy);
      const since = typeof filterBy.since === "string" ? Date.parse(filterBy.since) : null;
      const issues = all().filter(
        (issue) =>
          !issue.pull &&
          (!states || states.includes(upper(issue.state))) &&
          hasAnyLabel(repo, issue, labels) &&
          (since === null || Date.parse(issue.updatedAt) >= since),
      );
      return connection("issues", ordered(issues, args.orderBy), args, (issue) =>
        issueNode(core, repo, issue),
      );
    },
    pullRequests: (args: Args) => {
      const states = stateFilter(args);
      const labels = labelFilter(args);
      const pulls = all().filter(
        (issue) =>
          issue.pull &&
          (!states || states.includes(issue.pull.merged ? "MERGED" : upper(issue.state))) &&
          hasAnyLabel(repo, issue, labels),
      );
      return connection("pullRequests", ordered(pulls, args.orderBy), args, (issue) =>
        pullNode(core, repo, issue),
      );
    },
    // `query` searches names and descriptions; `label(name:)` matches a name case-insensitively.
    // https://docs.github.com/graphql/reference/objects#repository
    labels: (args: Args) => {
      const query = typeof args.query === "string" ? args.query.toLowerCase() : "";
      const matching = repo.labels.filter(
        (label) =>
          label.name.toLowerCase().includes(query) || (label.description ?? "").toLowerCase().includes(query),
      );
      return connection("labels", matching, args, (label) => labelNode(label));
    },
    // A branch by its qualified name, and its head commit (what a client reads after a commit it made).
    ref: async (args: Args) => {
      const name = String(args.qualifiedName);
      const qualified = name.startsWith("refs/") ? name : `refs/heads/${name}`;
      const sha = await resolveCommit(repo.gitDir, qualified);
      const commit = sha ? await commitInfo(repo.gitDir, sha) : null;
      if (!commit) return null;
      return {
        name: qualified.replace(/^refs\/[^/]+\//, ""),
        prefix: qualified.slice(0, qualified.indexOf("/", 5) + 1),
        target: {
          __typename: "Commit",
          oid: commit.sha,
          message: commit.message,
          parents: { nodes: commit.parents.map((oid) => ({ oid })) },
        },
      };
    },
    label: (args: Args) => {
      const name = String(args.name).toLowerCase();
      const label = repo.labels.find((candidate) => candidate.name.toLowerCase() === name);
      return label ? labelNode(label) : null;
    },
  };
}

// `IssueOrder`: by creation (the default, which number order matches) or by last update.
function ordered(issues: Issue[], orderBy: unknown): Issue[] {
  const order = (orderBy ?? {}) as Args;
  const key = (issue: Issue): number =>
    order.field === "UPDATED_AT" ? Date.parse(issue.updatedAt) : Date.parse(issue.createdAt);
  const sorted = [...issues].sort((a, b) => key(a) - key(b) || a.number - b.number);
  return order.direction === "DESC" ? sorted.reverse() : sorted;
}

export function rootValue(context: GraphqlContext): Record<string, unknown> {
  const { core, viewer, bucket } = context;
  const cost = context.cost ?? 1;
  return {
    resource: (args: Args) => resourceNode(core, viewer, context.token ?? null, String(args.url)),
    repository: (args: Args) => {
      const repo = findRepo(core.store, String(args.owner), String(args.name));
      if (!repo || permissionOf(core.store, repo, viewer.login) === "none") {
        throw new GraphQLError(
          `Could not resolve to a Repository with the name '${String(args.owner)}/${String(args.name)}'.`,
          { extensions: { type: "NOT_FOUND" } },
        );
      }
      return repositoryNode(core, repo);
    },
    viewer: () => actorNode(core, viewer.login),
    // GitHub counts the asking query itself (the endpoint charges its cost after answering).
    rateLimit: () => {
      const used = Math.min(bucket.limit, bucket.used + cost);
      return {
        cost,
        limit: bucket.limit,
        remaining: bucket.limit - used,
        used,
        resetAt: new Date(bucket.reset * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
        nodeCount: 0,
      };
    },
  };
}
