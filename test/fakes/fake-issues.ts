/* eslint-disable @typescript-eslint/require-await -- the fake answers at once; async turns its throws into rejections, as GitHub's errors are */
/**
 * The fake's issues, labels, moment writes and milestones (github-fake.ts):
 * each member a small function over the store, recording its call first.
 */
import type {
  IssuePort,
  LabelWrites,
  Milestone,
  MilestonePort,
  MomentResult,
  MomentWrite,
  MomentWrites,
  Comment,
} from "../../lib/github/index.ts";
import {
  commentRecord,
  editComment,
  issueAt,
  issueRecord,
  postComment,
  replaceLabels,
  urlOf,
  type FakeIssue,
  type FakeStore,
} from "./github-fake-store.ts";

/** Opens an issue (or, with `pull`, a pull request) in the store. */
export function openIssue(
  store: FakeStore,
  fields: Partial<Pick<FakeIssue, "title" | "body" | "milestone" | "author" | "pull" | "state">> & {
    labels?: readonly string[];
  },
): FakeIssue {
  const number = store.issues.size + 1;
  const at = store.now();
  const issue: FakeIssue = {
    number,
    nodeId: `${fields.pull ? "PR" : "I"}_${number}`,
    title: fields.title ?? `Issue ${number}`,
    body: fields.body ?? "",
    bodyRevisions: [],
    state: fields.state ?? "open",
    labels: new Set(),
    milestone: null,
    author: fields.author ?? "alice",
    createdAt: at,
    updatedAt: at,
    timeline: [],
    pull: fields.pull ?? null,
  };
  store.issues.set(number, issue);
  replaceLabels(store, issue, fields.labels ?? [], issue.author);
  moveToMilestone(store, issue, fields.milestone ?? null, issue.author);
  return issue;
}

/**
 * Puts the issue in a milestone (or none) as `actor` did, recording the `milestoned` event GitHub
 * records with its actor; a move to where it already is records nothing, as on GitHub.
 */
export function moveToMilestone(
  store: FakeStore,
  issue: FakeIssue,
  milestone: number | null,
  actor: string,
): void {
  if (issue.milestone === milestone) return;
  issue.milestone = milestone;
  issue.updatedAt = store.now();
  const title = milestone === null ? undefined : store.milestones.get(milestone)?.title;
  if (title !== undefined)
    issue.timeline.push({ kind: "milestoned", milestoneTitle: title, actor, createdAt: issue.updatedAt });
}

function applyMoment(
  store: FakeStore,
  write: MomentWrite,
  result: { labels: Map<number, string[]>; comments: Map<number, Comment> },
) {
  if (write.kind === "labels") {
    result.labels.set(
      write.number,
      replaceLabels(store, issueAt(store, write.number), write.labels, store.self),
    );
  } else if (write.kind === "comment") {
    editComment(store, write.comment.id, write.body);
  } else if (write.kind === "body") {
    const issue = issueAt(store, write.number);
    issue.body = write.body;
    issue.updatedAt = store.now();
  } else {
    result.comments.set(
      write.number,
      commentRecord(postComment(store, write.number, write.body, store.self)),
    );
  }
}

export function fakeIssues(store: FakeStore): LabelWrites & MomentWrites & IssuePort & MilestonePort {
  const milestoneOf = (number: number): Milestone | null => {
    const milestone = store.milestones.get(number);
    if (!milestone) return null;
    const issues = [...store.issues.values()].filter((issue) => issue.milestone === number && !issue.pull);
    const open = issues.filter((issue) => issue.state === "open").length;
    return { ...milestone, openIssues: open, closedIssues: issues.length - open };
  };
  return {
    async ensureLabels(defs) {
      store.record("ensureLabels", [defs]);
      const result = {
        created: new Array<string>(),
        updated: new Array<string>(),
        unchanged: new Array<string>(),
      };
      for (const def of defs) {
        const existing = store.labels.get(def.name.toLowerCase());
        const label = { name: def.name, color: def.color, description: def.description ?? null };
        if (!existing) result.created.push(def.name);
        else if (existing.color === def.color && existing.description === label.description) {
          result.unchanged.push(def.name);
          continue;
        } else result.updated.push(def.name);
        store.labels.set(def.name.toLowerCase(), label);
      }
      return result;
    },
    async createLabel(def) {
      store.record("createLabel", [def]);
      if (store.labels.has(def.name.toLowerCase())) return "exists";
      store.labels.set(def.name.toLowerCase(), {
        name: def.name,
        color: def.color,
        description: def.description ?? null,
      });
      return "created";
    },
    async setLabels(number, names) {
      store.record("setLabels", [number, names]);
      return replaceLabels(store, issueAt(store, number), names, store.self);
    },
    async removeLabel(number, name) {
      store.record("removeLabel", [number, name]);
      const issue = issueAt(store, number);
      if (!issue.labels.has(name)) return false;
      replaceLabels(
        store,
        issue,
        [...issue.labels].filter((label) => label !== name),
        store.self,
      );
      return true;
    },
    async writeMoment(writes) {
      store.record("writeMoment", [writes]);
      store.moments.push(writes);
      const result = { labels: new Map<number, string[]>(), comments: new Map<number, Comment>() };
      for (const write of writes) applyMoment(store, write, result);
      const answer: MomentResult = result;
      return answer;
    },
    async getIssue(number) {
      store.record("getIssue", [number]);
      const issue = store.issues.get(number);
      if (!issue) return null;
      const comments = store.comments.filter((comment) => comment.issue === number).map(commentRecord);
      return { ...issueRecord(store, issue), comments };
    },
    async listIssues(filter = {}) {
      store.record("listIssues", [filter]);
      const state = filter.state ?? "open";
      return [...store.issues.values()]
        .filter((issue) => state === "all" || issue.state === state)
        .filter((issue) => (filter.labels ?? []).every((label) => issue.labels.has(label)))
        .filter((issue) =>
          filter.milestone === undefined
            ? true
            : filter.milestone === "none"
              ? issue.milestone === null
              : filter.milestone === "*"
                ? issue.milestone !== null
                : issue.milestone === filter.milestone,
        )
        .map((issue) => ({ ...issueRecord(store, issue), updatedAt: issue.updatedAt }));
    },
    async createIssue(fields) {
      store.record("createIssue", [fields]);
      return issueRecord(store, openIssue(store, { ...fields, author: store.self }));
    },
    async updateIssue(number, patch) {
      store.record("updateIssue", [number, patch]);
      const issue = issueAt(store, number);
      if (patch.body !== undefined && patch.body !== issue.body) {
        if (issue.bodyRevisions.length === 0)
          issue.bodyRevisions.push({ editedAt: issue.createdAt, body: issue.body });
        issue.bodyRevisions.push({ editedAt: store.now(), body: patch.body, editor: store.self });
        issue.body = patch.body;
      }
      // GitHub keeps a rename in the timeline: the title a run was triggered with is read back from it.
      if (patch.title !== undefined && patch.title !== issue.title) {
        const renamed = { previousTitle: issue.title, currentTitle: patch.title };
        issue.timeline.push({ kind: "renamed", ...renamed, actor: store.self, createdAt: store.now() });
        issue.title = patch.title;
      }
      if (patch.state !== undefined) issue.state = patch.state;
      if (patch.milestone !== undefined) moveToMilestone(store, issue, patch.milestone, store.self);
      issue.updatedAt = store.now();
      return issueRecord(store, issue);
    },
    async listMilestoneIssues(number) {
      store.record("listMilestoneIssues", [number]);
      if (!store.milestones.has(number)) return null;
      return [...store.issues.values()]
        .filter((issue) => issue.milestone === number && !issue.pull)
        .map(({ nodeId, number: n, title, body, state, labels }) => ({
          nodeId,
          number: n,
          title,
          body,
          state,
          labels: [...labels],
        }));
    },
    async listMilestones(opts = {}) {
      store.record("listMilestones", [opts]);
      const state = opts.state ?? "open";
      return [...store.milestones.keys()]
        .flatMap((number) => milestoneOf(number) ?? [])
        .filter((milestone) => state === "all" || milestone.state === state);
    },
    async getMilestone(number) {
      store.record("getMilestone", [number]);
      return milestoneOf(number);
    },
    async createMilestone(fields) {
      store.record("createMilestone", [fields]);
      const number = store.milestones.size + 1;
      const milestone: Milestone = {
        number,
        title: fields.title,
        description: fields.description ?? "",
        state: fields.state ?? "open",
        dueOn: fields.dueOn ?? null,
        openIssues: 0,
        closedIssues: 0,
        url: urlOf(store, `milestone/${number}`),
      };
      store.milestones.set(number, milestone);
      return milestone;
    },
    async updateMilestone(number, patch) {
      store.record("updateMilestone", [number, patch]);
      const milestone = store.milestones.get(number);
      if (!milestone) throw new Error(`github-fake: milestone ${number} does not exist (404)`);
      store.milestones.set(number, { ...milestone, ...patch, dueOn: patch.dueOn ?? milestone.dueOn });
      return milestoneOf(number) ?? milestone;
    },
  };
}
