import type { SimCore } from "./core.ts";
import type { Issue, IssueComment, IssueEvent, Repo } from "./model.ts";
import { nodeId } from "./serialize-user.ts";

type Args = Record<string, unknown>;

// `IssueTimelineItemsItemType` values the simulator records, by the event kind they name.
const ITEM_TYPE: Record<IssueEvent["kind"], string> = {
  labeled: "LABELED_EVENT",
  unlabeled: "UNLABELED_EVENT",
  milestoned: "MILESTONED_EVENT",
  demilestoned: "DEMILESTONED_EVENT",
  renamed: "RENAMED_TITLE_EVENT",
};

type Item = { createdAt: string; render: () => Record<string, unknown>; type: string };

/**
 * An issue's `timelineItems`: its label, milestone and title events and its
 * comments in time order, filtered by `itemTypes` and `since` as GitHub does
 * (https://docs.github.com/en/graphql/reference/objects#issue, field
 * `timelineItems`; the event objects as in
 * https://docs.github.com/en/graphql/reference/objects#labeledevent,
 * #milestonedevent and #renamedtitleevent).
 */
export function timelineItems(
  core: SimCore,
  repo: Repo,
  issue: Issue,
  args: Args,
  nodes: {
    actor: (login: string) => Record<string, unknown>;
    comment: (comment: IssueComment) => Record<string, unknown>;
  },
): Item[] {
  const events: Item[] = (issue.events ?? []).map((event, index) => ({
    createdAt: event.createdAt,
    type: ITEM_TYPE[event.kind],
    render: () => eventNode(core, repo, issue, event, index, nodes.actor),
  }));
  const comments: Item[] = repo.comments
    .filter((comment) => comment.issueNumber === issue.number)
    .map((comment) => ({
      createdAt: comment.createdAt,
      type: "ISSUE_COMMENT",
      render: () => ({ __typename: "IssueComment", ...nodes.comment(comment) }),
    }));
  const types = Array.isArray(args.itemTypes) ? args.itemTypes.map(String) : null;
  const since = typeof args.since === "string" ? Date.parse(args.since) : null;
  return [...events, ...comments]
    .filter((item) => !types || types.includes(item.type))
    .filter((item) => since === null || Date.parse(item.createdAt) >= since)
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

function eventNode(
  core: SimCore,
  repo: Repo,
  issue: Issue,
  event: IssueEvent,
  index: number,
  actor: (login: string) => Record<string, unknown>,
): Record<string, unknown> {
  const common = {
    id: nodeId("EV", issue.id * 1000 + index),
    actor: actor(event.actor),
    createdAt: event.createdAt,
  };
  switch (event.kind) {
    case "labeled":
    case "unlabeled": {
      const label = repo.labels.find((candidate) => candidate.name === event.label);
      return {
        __typename: event.kind === "labeled" ? "LabeledEvent" : "UnlabeledEvent",
        ...common,
        label: {
          id: nodeId("LA", label?.id ?? 0),
          name: event.label,
          color: label?.color ?? "ededed",
          description: label?.description ?? null,
          isDefault: label?.isDefault ?? false,
          url: `${core.urls.web}/${repo.owner}/${repo.name}/labels/${encodeURIComponent(event.label)}`,
        },
      };
    }
    case "milestoned":
    case "demilestoned":
      return {
        __typename: event.kind === "milestoned" ? "MilestonedEvent" : "DemilestonedEvent",
        ...common,
        milestoneTitle: event.milestoneTitle,
      };
    case "renamed":
      return {
        __typename: "RenamedTitleEvent",
        ...common,
        previousTitle: event.previousTitle,
        currentTitle: event.currentTitle,
      };
  }
}
