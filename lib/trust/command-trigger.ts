/**
 * The trigger of a run a command starts (ask, plan, review, iterate, fix-ci,
 * rebase): the writer's act that asked for it, read from GitHub rather than
 * taken from the dispatch inputs — the comment with the command, a writer's
 * changes-requested review, or the CI failure — so text edited after it, in
 * the seconds or minutes before the run starts, never reaches the prompt. The
 * acts and the writer rule are trigger-act.ts's, as for a coding task. A run
 * a person dispatched by hand was checked before it began: its creation is
 * the act. Without any act (a deleted command, a run Locus started itself)
 * the `fallback` counts, else the run's creation.
 */
import type { Log } from "../github/index.ts";
import type { LocusIdentity } from "../github/locus-identity.ts";
import { selfLogins } from "./self-logins.ts";
import { isLocus } from "../github/locus-identity.ts";
import { latestWriterAct, type TriggerAct } from "./trigger-act.ts";
import type { Writers } from "./writers.ts";

export interface CommandTriggerOptions {
  /** When GitHub created the run: an act after it did not start this run. */
  readonly runCreatedAt: Date;
  readonly writers: Writers;
  /** What the run works on, for the log: "PR #4". */
  readonly target: string;
  /** The moment that counts when no writer's act is found. */
  readonly fallback?: { readonly at: Date; readonly what: string };
}

type TriggerContext = {
  readonly identity: LocusIdentity;
  readonly run: { readonly actor: string };
  readonly log: Log;
};

/** When the run was asked for, and by whom when a person asked (none for a fallback). */
export interface CommandTriggerAct {
  readonly at: Date;
  readonly requester?: string;
}

export async function commandTrigger(
  ctx: TriggerContext,
  acts: readonly TriggerAct[],
  options: CommandTriggerOptions,
): Promise<Date> {
  return (await commandTriggerAct(ctx, acts, options)).at;
}

export async function commandTriggerAct(
  ctx: TriggerContext,
  acts: readonly TriggerAct[],
  options: CommandTriggerOptions,
): Promise<CommandTriggerAct> {
  const byPerson = !ctx.run.actor.endsWith("[bot]") && ctx.run.actor !== "";
  if (byPerson) {
    ctx.log.info(
      `${options.target}: @${ctx.run.actor} started this run; text is taken as of its creation (${options.runCreatedAt.toISOString()}).`,
    );
    return { at: options.runCreatedAt, requester: ctx.run.actor };
  }
  const self = selfLogins(ctx);
  const trust = await options.writers.trustFor(acts.map((act) => act.actor).filter((a) => !isLocus(self, a)));
  const sorted = [...acts].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const act = latestWriterAct(
    sorted,
    { isWriter: trust.isWriter, isSelf: (login) => isLocus(self, login) },
    options.runCreatedAt,
  );
  if (act) {
    ctx.log.info(
      `${options.target}: triggered when @${act.actor} ${act.what} (${act.at}); text is taken as of then.`,
    );
    return { at: new Date(act.at), requester: act.actor };
  }
  const fallback = options.fallback ?? { at: options.runCreatedAt, what: "the run's creation" };
  ctx.log.info(
    `${options.target}: no act by a writer found; text is taken as of ${fallback.what} (${fallback.at.toISOString()}).`,
  );
  return { at: fallback.at };
}
