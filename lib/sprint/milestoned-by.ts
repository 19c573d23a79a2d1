/**
 * Who put an issue in its milestone, from its timeline: an issue is part of a
 * sprint only when someone with write access (or Locus) put it there, since a
 * triage-only member can move any issue into an active milestone. GitHub
 * records every milestone change as a `milestoned` event with its actor; the
 * newest one put the issue where it is now. Pure.
 */
import type { IssueTimeline } from "../github/index.ts";

export type MilestonedBy =
  | { readonly kind: "actor"; readonly login: string }
  /** No `milestoned` event among those GitHub returned (older ones may exist when truncated). */
  | { readonly kind: "unknown"; readonly truncated: boolean };

export function milestonedBy(timeline: IssueTimeline): MilestonedBy {
  const event = timeline.events.findLast((candidate) => candidate.kind === "milestoned");
  return event ? { kind: "actor", login: event.actor } : { kind: "unknown", truncated: timeline.truncated };
}

/** Why an issue in the milestone is not a sprint task, or undefined when a writer put it there. */
export function notAMemberBecause(
  number: number,
  by: MilestonedBy,
  isWriter: (login: string) => boolean,
): string | undefined {
  if (by.kind === "actor") {
    return isWriter(by.login)
      ? undefined
      : `#${number} was put in this milestone by \`${by.login}\`, who has no write access; it is left out until someone with write access puts it in the milestone`;
  }
  return by.truncated
    ? `#${number}: who put it in this milestone is beyond the timeline GitHub returned; it is left out until someone with write access puts it in the milestone again`
    : `#${number}: GitHub shows nobody putting it in this milestone; it is left out until someone with write access does`;
}
