/**
 * An issue's title as it stood at the trigger. GitHub keeps no edit history
 * for titles, but every rename is a timeline event with the title before and
 * after it: the title then is the one the first rename after the trigger
 * replaced. Pure.
 */
import type { IssueTimeline } from "../github/index.ts";

export type TitleAtTrigger =
  { readonly ok: true; readonly title: string } | { readonly ok: false; readonly why: string };

export function titleAtTrigger(current: string, timeline: IssueTimeline, triggeredAt: Date): TitleAtTrigger {
  const limit = triggeredAt.getTime();
  // The events are the newest GitHub returned: when all of them follow the trigger, an older rename may too.
  const oldest = timeline.events[0];
  if (timeline.truncated && (oldest === undefined || Date.parse(oldest.createdAt) > limit)) {
    return { ok: false, why: "its renames since the trigger are beyond the timeline GitHub returned" };
  }
  const renamedAfter = timeline.events.find(
    (event) => event.kind === "renamed" && Date.parse(event.createdAt) > limit,
  );
  return { ok: true, title: renamedAfter?.kind === "renamed" ? renamedAfter.previousTitle : current };
}
