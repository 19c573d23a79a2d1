import { z } from "zod";
import { sameText } from "./comments.ts";
import { MILESTONE_ISSUES_QUERY } from "./queries.ts";
import { commentSchema, issueSchema, listedIssueSchema, milestoneIssuesSchema } from "./schemas.ts";
import { rememberLabelIds } from "./run-and-spend.ts";
import type { Transport } from "./transport-types.ts";
import type { GitHubGateway, MilestoneIssue } from "./types.ts";

type IssueOps = Pick<
  GitHubGateway,
  "getIssue" | "listIssues" | "createIssue" | "updateIssue" | "listMilestoneIssues" | "listIssueComments"
>;

export function issueOps(t: Transport): IssueOps {
  const listIssueComments: IssueOps["listIssueComments"] = (issue, opts = {}) =>
    t.restPages(
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
      { issue_number: issue, ...(opts.since === undefined ? {} : { since: opts.since }) },
      commentSchema,
    );

  return {
    listIssueComments,
    async getIssue(issue) {
      const found = await t.restOrNull(
        "GET /repos/{owner}/{repo}/issues/{issue_number}",
        { issue_number: issue },
        issueSchema,
      );
      if (!found) return null;
      return { ...found, comments: await listIssueComments(issue) };
    },
    async listIssues(filter = {}) {
      const issues = await t.restPages(
        "GET /repos/{owner}/{repo}/issues",
        {
          state: filter.state ?? "open",
          ...(filter.labels === undefined ? {} : { labels: filter.labels.join(",") }),
          ...(filter.milestone === undefined ? {} : { milestone: String(filter.milestone) }),
        },
        listedIssueSchema,
      );
      // The issues endpoint lists pull requests too.
      return issues.filter((i) => !i.isPullRequest);
    },
    createIssue(issue) {
      return t.create({
        what: `issue "${issue.title}"`,
        send: (once) => once.rest("POST /repos/{owner}/{repo}/issues", { ...issue }, issueSchema),
        // The newest issues touched since: one with the same title and text
        // (Locus's carry hidden markers that name their origin) is this one.
        async landed(since) {
          const recent = await t.rest(
            "GET /repos/{owner}/{repo}/issues",
            { state: "all", sort: "created", direction: "desc", since: since.toISOString(), per_page: 100 },
            z.array(issueSchema),
          );
          const found = recent.find(
            (i) => !i.isPullRequest && i.title === issue.title && sameText(i.body, issue.body ?? ""),
          );
          return found ?? null;
        },
      });
    },
    updateIssue(issue, patch) {
      return t.rest(
        "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
        { issue_number: issue, ...patch },
        issueSchema,
      );
    },
    async listMilestoneIssues(milestone) {
      const issues: MilestoneIssue[] = [];
      let after: string | null = null;
      for (;;) {
        const data: z.infer<typeof milestoneIssuesSchema> = await t.graphql(
          "MilestoneIssues",
          MILESTONE_ISSUES_QUERY,
          { owner: t.repo.owner, name: t.repo.repo, milestone, after },
          milestoneIssuesSchema,
        );
        const repository = data.repository;
        const page = repository?.milestone?.issues;
        if (!page) return null;
        // Locus's own labels (the orders a sprint may give included) and every label the issues carry:
        // the label sets a sprint's activation writes can then go in one GraphQL request (moment-writes.ts).
        rememberLabelIds(t.labelIds, [
          ...(repository?.statusLabels?.nodes ?? []),
          repository?.managedLabel,
          ...(repository?.orderLabels?.nodes ?? []),
        ]);
        for (const node of page.nodes) {
          const labels = node.labels?.nodes ?? [];
          rememberLabelIds(t.labelIds, labels);
          issues.push({
            ...(node.id === undefined ? {} : { nodeId: node.id }),
            number: node.number,
            title: node.title,
            body: node.body,
            state: node.state === "OPEN" ? "open" : "closed",
            labels: labels.flatMap((label) => (label ? [label.name] : [])),
          });
        }
        if (!page.pageInfo.hasNextPage || page.pageInfo.endCursor === null) return issues;
        after = page.pageInfo.endCursor;
      }
    },
  };
}
