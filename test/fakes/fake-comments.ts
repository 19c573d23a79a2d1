/* eslint-disable @typescript-eslint/require-await -- the fake answers at once; async turns its throws into rejections, as GitHub's errors are */
/**
 * The fake's conversation members (github-fake.ts): comments post as the
 * store's `self` at the clock's time, a sticky comment is found by its
 * hidden first line and only when Locus wrote it, as the real gateway does.
 */
import type { CommentPort } from "../../lib/github/index.ts";
import { isLocus } from "../../lib/github/locus-identity.ts";
import {
  commentRecord,
  commentsOf,
  editComment,
  issueAt,
  postComment,
  type FakeStore,
} from "./github-fake-store.ts";

/** The logins whose comments count as Locus's: the store's bot and the Actions bot. */
export function selfLogins(store: FakeStore): string[] {
  return [store.self, "github-actions[bot]"];
}

export function fakeComments(store: FakeStore): CommentPort {
  const sticky = (number: number, marker: string) =>
    commentsOf(store, number).find(
      (comment) =>
        comment.body.startsWith(`<!-- ${marker} -->`) && isLocus(selfLogins(store), comment.author),
    );
  return {
    async listIssueComments(number, opts = {}) {
      store.record("listIssueComments", [number, opts]);
      issueAt(store, number);
      const since = opts.since;
      return commentsOf(store, number)
        .filter((comment) => since === undefined || comment.updatedAt >= since)
        .map(commentRecord);
    },
    async createComment(number, body) {
      store.record("createComment", [number, body]);
      return commentRecord(postComment(store, number, body, store.self));
    },
    async updateComment(id, body) {
      store.record("updateComment", [id, body]);
      return commentRecord(editComment(store, id, body));
    },
    async findCommentByMarker(number, marker) {
      store.record("findCommentByMarker", [number, marker]);
      const found = sticky(number, marker);
      return found ? commentRecord(found) : null;
    },
    async upsertComment(number, marker, body) {
      store.record("upsertComment", [number, marker, body]);
      const text = `<!-- ${marker} -->\n${body}`;
      const existing = sticky(number, marker);
      if (!existing)
        return { action: "created", comment: commentRecord(postComment(store, number, text, store.self)) };
      if (existing.body === text) return { action: "unchanged", comment: commentRecord(existing) };
      return { action: "updated", comment: commentRecord(editComment(store, existing.id, text)) };
    },
    async addReaction(target, content) {
      store.record("addReaction", [target, content]);
    },
  };
}
