import { GraphQLError } from "graphql";
import { BODY_TOO_LONG, MAX_ISSUE_BODY } from "./body-limit.ts";
import { recordEdit } from "./content-edits.ts";
import {
  databaseIdOf,
  findSubject,
  forbidden,
  inputOf,
  stringField,
  unresolvable,
} from "./graphql-mutations.ts";
import { commentNode, issueNode, pullNode, type GraphqlContext } from "./graphql-resolvers.ts";
import { applyLabels, emitIssueEvent, type ChangeContext } from "./issue-mutations.ts";
import { isoNow, type Issue, type IssueComment, type Repo } from "./model.ts";
import { commentJson, issueJson } from "./serialize-issue.ts";
import { hasPermission, permissionOf } from "./store.ts";

// The update mutations Locus batches into one request with the other writes of one moment: an
// issue's or a pull request's whole label set (`labelIds` replaces the set, as REST `PUT …/labels`
// does) and an issue comment's body. Inputs and payloads as in GitHub's schema:
// https://docs.github.com/graphql/reference/mutations#updateissue
// https://docs.github.com/graphql/reference/mutations#updatepullrequest
// https://docs.github.com/graphql/reference/mutations#updateissuecomment

type Args = Record<string, unknown>;

// Only the fields Locus sends are modelled; any other is refused rather than silently ignored.
function onlyFields(input: Args, allowed: readonly string[], mutation: string): void {
  const extra = Object.keys(input).filter((key) => input[key] !== undefined && !allowed.includes(key));
  if (extra.length > 0)
    throw new GraphQLError(`The simulator's ${mutation} does not model ${extra.join(", ")}`, {
      extensions: { type: "UNPROCESSABLE" },
    });
}

function labelNames(repo: Repo, ids: unknown): string[] {
  if (!Array.isArray(ids)) return [];
  return ids.map((id) => {
    const databaseId = databaseIdOf(String(id), "LA");
    const label = repo.labels.find((candidate) => candidate.id === databaseId);
    if (!label) throw unresolvable(String(id));
    return label.name;
  });
}

export function issueUpdateRoot(context: GraphqlContext): Record<string, unknown> {
  const { core, viewer } = context;
  const change: ChangeContext = { core, actor: { user: viewer, token: null } };

  // Labelling takes triage on the repository, as on the REST routes.
  async function relabel(repo: Repo, issue: Issue, input: Args, mutation: string): Promise<void> {
    if (input.labelIds === undefined) return;
    if (!hasPermission(permissionOf(core.store, repo, viewer.login), "triage"))
      throw forbidden(viewer.login, mutation);
    await applyLabels(change, repo, issue, labelNames(repo, input.labelIds));
  }

  // Its author may edit an issue's body; anyone else needs triage, as on the REST route.
  async function rewrite(repo: Repo, issue: Issue, body: string): Promise<void> {
    if (body.length > MAX_ISSUE_BODY)
      throw new GraphQLError(BODY_TOO_LONG, {
        extensions: { type: "UNPROCESSABLE" },
      });
    const own = issue.author.toLowerCase() === viewer.login.toLowerCase();
    if (!own && !hasPermission(permissionOf(core.store, repo, viewer.login), "triage"))
      throw forbidden(viewer.login, "UpdateIssue");
    if (body === issue.body) return;
    const previous = issue.body;
    const at = isoNow(core.store);
    recordEdit(issue, previous, body, at, viewer.login);
    issue.body = body;
    issue.updatedAt = at;
    await emitIssueEvent(change, repo, issue, "edited", { changes: { body: { from: previous } } });
  }

  return {
    updateIssue: async (args: Args) => {
      const input = inputOf(args);
      onlyFields(input, ["id", "labelIds", "body", "clientMutationId"], "updateIssue");
      const { repo, issue } = findSubject(core, viewer, stringField(input, "id"));
      if (issue.pull) throw unresolvable(stringField(input, "id"));
      if (typeof input.body === "string") await rewrite(repo, issue, input.body);
      await relabel(repo, issue, input, "UpdateIssue");
      return { clientMutationId: input.clientMutationId ?? null, issue: issueNode(core, repo, issue) };
    },

    updatePullRequest: async (args: Args) => {
      const input = inputOf(args);
      onlyFields(input, ["pullRequestId", "labelIds", "clientMutationId"], "updatePullRequest");
      const { repo, issue } = findSubject(core, viewer, stringField(input, "pullRequestId"));
      if (!issue.pull) throw unresolvable(stringField(input, "pullRequestId"));
      await relabel(repo, issue, input, "UpdatePullRequest");
      return { clientMutationId: input.clientMutationId ?? null, pullRequest: pullNode(core, repo, issue) };
    },

    // Its author may edit a comment; anyone else needs triage.
    updateIssueComment: (args: Args) => {
      const input = inputOf(args);
      const id = stringField(input, "id");
      const body = stringField(input, "body");
      const found = findComment(context, id);
      if (!found) throw unresolvable(id);
      const { repo, comment } = found;
      const own = comment.author.toLowerCase() === viewer.login.toLowerCase();
      if (!own && !hasPermission(permissionOf(core.store, repo, viewer.login), "triage"))
        throw forbidden(viewer.login, "UpdateIssueComment");
      const previous = comment.body;
      const at = isoNow(core.store);
      if (body !== previous) recordEdit(comment, previous, body, at, viewer.login);
      comment.body = body;
      comment.updatedAt = at;
      const issue = repo.issues.get(comment.issueNumber);
      if (issue)
        core.emit(
          "issue_comment",
          {
            action: "edited",
            changes: { body: { from: previous } },
            issue: issueJson(core, repo, issue),
            comment: commentJson(core, repo, comment),
          },
          { repo, sender: viewer },
        );
      return {
        clientMutationId: input.clientMutationId ?? null,
        issueComment: commentNode(core, repo, comment),
      };
    },
  };
}

function findComment(context: GraphqlContext, id: string): { repo: Repo; comment: IssueComment } | null {
  const databaseId = databaseIdOf(id, "IC");
  for (const repo of context.core.store.repos.values()) {
    if (permissionOf(context.core.store, repo, context.viewer.login) === "none") continue;
    const comment = repo.comments.find((candidate) => candidate.id === databaseId);
    if (comment) return { repo, comment };
  }
  return null;
}
