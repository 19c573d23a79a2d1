/**
 * A coding task's trigger: the newest act by a writer in the issue's timeline
 * (trigger-act.ts), with the title as it stood then (title-at-trigger.ts).
 * Without such an act the run itself is the trigger: a person who dispatched
 * it by hand was checked for write access before the run began, and a run
 * Locus dispatched keeps the time GitHub created it, provided a writer (or
 * Locus) wrote the issue. An issue someone else wrote, with no writer's act
 * on it, is refused: nobody who may start work asked for it (a label the app
 * never saw being set, say).
 */
import type { TaskIssue } from "../github/index.ts";
import type { ActionContext } from "./context.ts";
import { selfLogins } from "../trust/self-logins.ts";
import { isLocus } from "../github/locus-identity.ts";
import { titleAtTrigger } from "../trust/title-at-trigger.ts";
import { latestWriterAct, triggerActs } from "../trust/trigger-act.ts";
import type { Writers } from "../trust/writers.ts";

export interface TaskTrigger {
  /** The cut for the description and the comments: a writer's rename alone does not move it. */
  readonly triggeredAt: Date;
  /** The title as of the trigger (a neutral one when it cannot be recovered). */
  readonly title: string;
  /** Why the title could not be recovered. */
  readonly titleWithheld?: string;
  /** Why the task must not run: no writer asked for it. */
  readonly refused?: string;
}

export async function taskTrigger(
  ctx: Pick<ActionContext, "config" | "identity" | "run" | "log">,
  issue: TaskIssue,
  options: { runCreatedAt: Date; sprint: boolean; waitingSince?: string; writers: Writers },
): Promise<TaskTrigger> {
  const self = selfLogins(ctx);
  const byPerson = !ctx.run.actor.endsWith("[bot]") && ctx.run.actor !== "";
  const acts = triggerActs(issue, {
    sprint: options.sprint,
    ...(options.waitingSince === undefined ? {} : { waitingSince: options.waitingSince }),
  });
  const trust = await options.writers.trustFor(acts.map((act) => act.actor).filter((a) => !isLocus(self, a)));
  const who = { isWriter: trust.isWriter, isSelf: (login: string) => isLocus(self, login) };
  const actFor = (part?: "title" | "description") =>
    byPerson ? undefined : latestWriterAct(acts, who, options.runCreatedAt, part);
  const act = actFor();
  // Each text is cut at the newest act that vouches for it; with none (only a rename, say), at the newest act.
  const cut = (part: "title" | "description"): Date => {
    const found = actFor(part) ?? act;
    return found ? new Date(found.at) : options.runCreatedAt;
  };
  const triggeredAt = cut("description");
  if (!act && !byPerson && !isLocus(self, issue.author)) {
    const author = await options.writers.trustFor([issue.author]);
    if (!author.isWriter(issue.author)) {
      return {
        triggeredAt,
        title: issue.title,
        refused: `nobody with write access asked for #${issue.number}: its timeline shows no \`locus:queued\` label, \`/locus run\` or other act by a writer, and its author has no write access`,
      };
    }
  }
  ctx.log.info(
    act
      ? `#${issue.number}: triggered when @${act.actor} ${act.what} (${act.at}); its title and description are taken as of then.`
      : `#${issue.number}: ${byPerson ? `@${ctx.run.actor} started this run` : "no act by a writer in its timeline"}; its title and description are taken as of the run's creation (${triggeredAt.toISOString()}).`,
  );
  if (!issue.timeline) return { triggeredAt, title: issue.title };
  const title = titleAtTrigger(issue.title, issue.timeline, cut("title"));
  return title.ok
    ? { triggeredAt, title: title.title }
    : { triggeredAt, title: `Issue #${issue.number}`, titleWithheld: title.why };
}
