/**
 * When a writer triggered a coding task, read from the issue's timeline: the
 * newest act by someone with write access that asks for the work — labelling
 * it `locus:queued`, commenting `/locus run` (or answering the question a
 * waiting task asked), and for a sprint task putting it in the milestone. A
 * writer's own rename or edit of the description counts too: whoever may start
 * the work vouches for the text they wrote (a sprint's issues are often written
 * after they were put in the milestone). The
 * title and body the task works from are those as of that act, so an edit made
 * after it (by anyone, before a run starts or before a retry) cannot steer the
 * agent. Locus's own acts (its re-queueing labels) vouch for nothing and are
 * left out. Pure: the caller says who is a writer.
 */
import { parseCommand, type CommandName } from "../commands/index.ts";
import type { TaskIssue } from "../github/index.ts";
import { STATUS_PREFIX } from "../labels/schema.ts";
import { itemAtTrigger, type TimedText } from "./text-at-trigger.ts";

export interface TriggerAct {
  readonly actor: string;
  readonly at: string;
  /** What the act was, for the log: "labelled it locus:queued". */
  readonly what: string;
  /**
   * A rename vouches for the title only, an edit of the description for the description only:
   * neither lets in what someone else changed in the other meanwhile.
   */
  readonly only?: "title" | "description";
}

export interface ActOptions {
  /** A sprint task: putting the issue in the milestone is an act that queues it. */
  readonly sprint?: boolean;
  /** When the waiting task asked its question: any comment after it answers and requeues. */
  readonly waitingSince?: string;
}

const QUEUED = `${STATUS_PREFIX}queued`;

/** Every act in the issue's timeline and comments that could have triggered the task, oldest first. */
export function triggerActs(
  issue: Pick<TaskIssue, "timeline" | "comments" | "history">,
  options: ActOptions = {},
): TriggerAct[] {
  const acts: TriggerAct[] = [];
  for (const event of issue.timeline?.events ?? []) {
    if (event.kind === "labeled" && event.label === QUEUED) {
      acts.push({ actor: event.actor, at: event.createdAt, what: `labelled it ${QUEUED}` });
    } else if (event.kind === "milestoned" && options.sprint) {
      acts.push({ actor: event.actor, at: event.createdAt, what: `put it in ${event.milestoneTitle}` });
    } else if (event.kind === "renamed") {
      acts.push({ actor: event.actor, at: event.createdAt, what: "renamed it", only: "title" });
    }
  }
  const created = Date.parse(issue.history.createdAt);
  for (const revision of issue.history.revisions) {
    // The first revision is the text as created, which asks for nothing.
    if (revision.editor === undefined || Date.parse(revision.editedAt) <= created) continue;
    acts.push({
      actor: revision.editor,
      at: revision.editedAt,
      what: "edited its description",
      only: "description",
    });
  }
  const waitingSince = options.waitingSince === undefined ? undefined : Date.parse(options.waitingSince);
  for (const comment of issue.comments) {
    const parsed = parseCommand(comment.body);
    const command = parsed.kind === "command" ? parsed.command.name : undefined;
    if (command === "run" || command === "answer") {
      acts.push({ actor: comment.author, at: comment.createdAt, what: `commented /locus ${command}` });
    } else if (waitingSince !== undefined && Date.parse(comment.createdAt) > waitingSince) {
      acts.push({ actor: comment.author, at: comment.createdAt, what: "answered its question" });
    }
  }
  return acts.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/**
 * The comments that gave one of these `/locus` commands (ask, plan, review,
 * iterate, fix-ci, rebase: the modes a command starts), as acts at the moment
 * each was written. A comment counts by its text as written: edited into a
 * command later, it started nothing; one whose first text GitHub no longer
 * holds cannot be told to have been a command, and is left out.
 */
export function commandActs(
  comments: readonly (TimedText & { readonly author: string })[],
  names: readonly CommandName[],
): TriggerAct[] {
  return comments.flatMap((comment) => {
    const written = itemAtTrigger(comment, new Date(comment.createdAt));
    if (written.kind !== "kept") return [];
    const parsed = parseCommand(written.item.body);
    if (parsed.kind !== "command" || !names.includes(parsed.command.name)) return [];
    return [
      { actor: comment.author, at: comment.createdAt, what: `commented /locus ${parsed.command.name}` },
    ];
  });
}

/**
 * The newest act by a writer other than Locus, no later than `notAfter` (the
 * run's creation: an act after it did not start this run); undefined when the
 * timeline holds none.
 */
export function latestWriterAct(
  acts: readonly TriggerAct[],
  who: { isWriter(login: string): boolean; isSelf(login: string): boolean },
  notAfter?: Date,
  part?: "title" | "description",
): TriggerAct | undefined {
  const limit = notAfter?.getTime() ?? Number.POSITIVE_INFINITY;
  return acts.findLast(
    (act) =>
      Date.parse(act.at) <= limit &&
      !who.isSelf(act.actor) &&
      who.isWriter(act.actor) &&
      (part === undefined || act.only === undefined || act.only === part),
  );
}
