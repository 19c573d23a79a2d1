/**
 * Turns a parsed issue or pull request node into the `TaskIssue` the prompt
 * reads, fetching the rest of its comments when it has more than one page.
 * Apart because it is the only part of the task reads that sends a request of
 * its own.
 */
import { z } from "zod";
import { rememberLabelIds } from "./run-and-spend.ts";
import { ISSUE_COMMENTS_QUERY } from "./task-fragments.ts";
import {
  actorSchema,
  commentPageSchema,
  historyOf,
  namesOf,
  present,
  type ThreadNode,
  timelineOf,
} from "./task-node-schemas.ts";
import type { TaskIssue } from "./task-types.ts";
import type { Transport } from "./transport-types.ts";

const issueCommentsSchema = z.object({
  repository: z.object({
    issueOrPullRequest: z.object({ comments: commentPageSchema.optional() }).nullable(),
  }),
});

/** Turns thread nodes into `TaskIssue`s, paging comments past the first page. */
export function taskIssueReader(t: Transport): (node: ThreadNode) => Promise<TaskIssue> {
  const at = { owner: t.repo.owner, name: t.repo.repo };

  async function allComments(number: number, first: z.infer<typeof commentPageSchema>) {
    const comments = present(first.nodes);
    let page = first.pageInfo;
    while (page.hasNextPage && page.endCursor !== null) {
      const data = await t.graphql(
        "IssueComments",
        ISSUE_COMMENTS_QUERY,
        { ...at, number, after: page.endCursor },
        issueCommentsSchema,
      );
      const next = data.repository.issueOrPullRequest?.comments;
      if (!next) break;
      comments.push(...present(next.nodes));
      page = next.pageInfo;
    }
    return comments;
  }

  return async (node) => {
    rememberLabelIds(t.labelIds, node.labels?.nodes ?? []);
    return {
      ...(node.id === undefined ? {} : { nodeId: node.id }),
      number: node.number,
      title: node.title,
      body: node.body,
      state: ("pullState" in node ? node.pullState : node.state) === "OPEN" ? "open" : "closed",
      labels: namesOf(node.labels),
      milestone: node.milestone?.number ?? null,
      author: actorSchema.parse(node.author),
      isPullRequest: "headRefName" in node,
      url: node.url,
      comments: await allComments(node.number, node.comments),
      history: historyOf(node),
      ...("timelineItems" in node ? { timeline: timelineOf(node.timelineItems) } : {}),
    };
  };
}
