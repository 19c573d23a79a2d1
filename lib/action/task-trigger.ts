/**
 * A coding task's trigger: the newest act by a writer in the issue's timeline
 * (trigger-act.ts), with the title as it stood then (title-at-trigger.ts).
 * Without such an act the run itself is the trigger: a person who dispatched
 * it by hand was checked for write access before the run began, and a run
 * Locus dispatched keeps the time GitHub created it.
 */
import type { TaskIssue } from "../github/index.ts";
import type { ActionContext } from "./context.ts";
import { isSelf, selfLogins } from "./self-logins.ts";
import { titleAtTrigger } from "./title-at-trigger.ts";
import { latestWriterAct, triggerActs } from "./trigger-act.ts";
import type { Writers } from "./writers.ts";

export interface TaskTrigger {
  readonly triggeredAt: Date;
  /** The title as of the trigger (a neutral one when it cannot be recovered). */
  readonly title: string;
  /** Why the title could not be recovered. */
  readonly titleWithheld?: string;
}

export async function taskTrigger(
  ctx: Pick<ActionContext, "config" | "run" | "log">,
  issue: TaskIssue,
  options: { runCreatedAt: Date; sprint: boolean; waitingSince?: string; writers: Writers },
): Promise<TaskTrigger> {
  const self = selfLogins(ctx);
  const byPerson = !ctx.run.actor.endsWith("[bot]") && ctx.run.actor !== "";
  const acts = triggerActs(issue, {
    sprint: options.sprint,
    ...(options.waitingSince === undefined ? {} : { waitingSince: options.waitingSince }),
  });
  const trust = await options.writers.trustFor(acts.map((act) => act.actor).filter((a) => !isSelf(self, a)));
  const act = byPerson
    ? undefined
    : latestWriterAct(
        acts,
        { isWriter: trust.isWriter, isSelf: (login) => isSelf(self, login) },
        options.runCreatedAt,
      );
  const triggeredAt = act ? new Date(act.at) : options.runCreatedAt;
  ctx.log.info(
    act
      ? `#${issue.number}: triggered when @${act.actor} ${act.what} (${act.at}); its title and description are taken as of then.`
      : `#${issue.number}: ${byPerson ? `@${ctx.run.actor} started this run` : "no act by a writer in its timeline"}; its title and description are taken as of the run's creation (${triggeredAt.toISOString()}).`,
  );
  if (!issue.timeline) return { triggeredAt, title: issue.title };
  const title = titleAtTrigger(issue.title, issue.timeline, triggeredAt);
  return title.ok
    ? { triggeredAt, title: title.title }
    : { triggeredAt, title: `Issue #${issue.number}`, titleWithheld: title.why };
}
