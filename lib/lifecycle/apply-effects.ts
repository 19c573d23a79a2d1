/**
 * The one place a lifecycle step (lifecycle.ts) reaches GitHub. The label set
 * and the status comment of one moment go out together, with any other write
 * of that moment (a new PR's label, the sprint dashboard), as one request
 * where GitHub allows it (gateway.writeMoment, through the status writer).
 * One label taken off alone (a sweep's claim, a refused label) is GitHub's
 * "remove a label", whose 404 tells who lost a race. New comments (a
 * failure, a question, a refusal) are created after it, one call each: a
 * create is not repeated blindly, and a question's id is what the next step
 * records.
 */
import { labelWrite, type Comment, type GitHubGateway, type MomentWrite } from "../github/index.ts";
import type { StatusRecord } from "../status/status-store.ts";
import { step, type Effect, type Step, type TaskEvent, type TaskState } from "./lifecycle.ts";
import { createStatusWriter, type StatusWriter, type StatusWrites } from "./status-writer.ts";

type Issue = { readonly number: number; readonly nodeId?: string | undefined };

export interface EffectTarget {
  readonly gateway: Pick<GitHubGateway, "writeMoment" | "createComment" | "removeLabel">;
  readonly issue: Issue;
  /** The issue's status comment; absent where a step writes none (the app's label steps). */
  readonly writeStatus?: StatusWriter;
  /** Hides the run's secrets in every comment it posts. */
  readonly mask: (text: string) => string;
}

/** The target for an issue whose status comment was read as `record`: later writes edit it. */
export function statusTarget(
  gateway: EffectTarget["gateway"] & StatusWrites,
  issue: Issue,
  record: StatusRecord,
  mask: (text: string) => string = (text) => text,
): EffectTarget {
  return { gateway, issue, writeStatus: createStatusWriter(gateway, issue, record), mask };
}

export interface Applied {
  /** The issue's labels as GitHub answered them, when the step set them. */
  readonly labels?: readonly string[];
  /** Whether the label the step took off alone was there to take (false: someone took it first). */
  readonly removed?: boolean;
  /** The comments the step posted, in order. */
  readonly comments: readonly Comment[];
}

export async function applyEffects(
  target: EffectTarget,
  effects: readonly Effect[],
  alongside: readonly MomentWrite[] = [],
): Promise<Applied> {
  const { gateway, issue } = target;
  let labels: readonly string[] | undefined;
  let status: Extract<Effect, { kind: "status" }> | undefined;
  let removal: string | undefined;
  const posts: string[] = [];
  for (const effect of effects) {
    if (effect.kind === "labels") labels = effect.labels;
    else if (effect.kind === "status") status = effect;
    else if (effect.kind === "remove-label") removal = effect.label;
    else posts.push(effect.body);
  }
  const removed = removal === undefined ? {} : { removed: await gateway.removeLabel(issue.number, removal) };
  const writes = [...(labels ? [labelWrite(issue, labels)] : []), ...alongside];
  let written: readonly string[] | undefined = labels;
  if (status) {
    if (!target.writeStatus) throw new Error(`#${issue.number}: no status comment to write`);
    const result = await target.writeStatus(status.view, status.state, writes);
    written = result.labels.get(issue.number) ?? labels;
  } else if (writes.length > 0) {
    const result = await gateway.writeMoment(writes);
    written = result.labels.get(issue.number) ?? labels;
  }
  const comments: Comment[] = [];
  for (const body of posts) comments.push(await gateway.createComment(issue.number, target.mask(body)));
  return { ...(written ? { labels: written } : {}), ...removed, comments };
}

/**
 * `event` stepped from `task` (the state Locus last wrote) and applied: the task's next state, with
 * the labels GitHub answered. Every run that follows one task event by event (a coding task, a PR
 * round, a read-only run) goes through here; an event the lifecycle refuses is a bug, and throws.
 */
export async function advanceTask(
  target: EffectTarget,
  task: TaskState,
  event: TaskEvent,
  alongside: readonly MomentWrite[] = [],
): Promise<{ readonly task: TaskState; readonly applied: Applied }> {
  return applyStep(target, step(task, event), alongside);
}

/** A step already taken (its refusal checked by the caller or a bug), applied. */
export async function applyStep(
  target: EffectTarget,
  next: Step,
  alongside: readonly MomentWrite[] = [],
): Promise<{ readonly task: TaskState; readonly applied: Applied }> {
  if ("refused" in next) throw new Error(`#${target.issue.number}: ${next.refused}`);
  const applied = await applyEffects(target, next.effects, alongside);
  return { task: applied.labels ? { ...next.state, labels: applied.labels } : next.state, applied };
}

/**
 * Label sets per request when many issues move at one moment (a sprint's activation): a large
 * milestone's writes go in several, so no one request nears GitHub's time limit for a GraphQL call
 * (docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#timeouts).
 */
const LABEL_SETS_PER_REQUEST = 50;

/** The label effects of many issues' steps, applied together: one request per 50 label sets. */
export async function applyLabelSets(
  gateway: Pick<GitHubGateway, "writeMoment">,
  steps: readonly { readonly issue: Issue; readonly effects: readonly Effect[] }[],
): Promise<void> {
  const writes: MomentWrite[] = [];
  for (const { issue, effects } of steps) {
    for (const effect of effects) {
      if (effect.kind === "labels") writes.push(labelWrite(issue, effect.labels));
      else throw new Error(`#${issue.number}: only label sets are applied together, not ${effect.kind}`);
    }
  }
  for (let start = 0; start < writes.length; start += LABEL_SETS_PER_REQUEST) {
    await gateway.writeMoment(writes.slice(start, start + LABEL_SETS_PER_REQUEST));
  }
}
