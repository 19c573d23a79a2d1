/**
 * The one place a lifecycle step (lifecycle.ts) reaches GitHub. The label set
 * and the status comment of one moment go out together, with any other write
 * of that moment (a new PR's label, the sprint dashboard), as one request
 * where GitHub allows it (gateway.writeMoment, through the status writer).
 * New comments (a failure, a question, a refusal) are created after it, one
 * call each: a create is not repeated blindly, and a question's id is what
 * the next step records.
 */
import { labelWrite, type Comment, type GitHubGateway, type MomentWrite } from "../github/index.ts";
import type { StatusWriter } from "../status/status-store.ts";
import type { Effect } from "./lifecycle.ts";

export interface EffectTarget {
  readonly gateway: Pick<GitHubGateway, "writeMoment" | "createComment">;
  readonly issue: { readonly number: number; readonly nodeId?: string | undefined };
  /** The issue's status comment; absent where a step writes none (the app's `run-ended`). */
  readonly writeStatus?: StatusWriter;
  /** Hides the run's secrets in every comment it posts. */
  readonly mask: (text: string) => string;
}

export interface Applied {
  /** The issue's labels as GitHub answered them, when the step set them. */
  readonly labels?: readonly string[];
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
  const posts: string[] = [];
  for (const effect of effects) {
    if (effect.kind === "labels") labels = effect.labels;
    else if (effect.kind === "status") status = effect;
    else posts.push(effect.body);
  }
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
  return { ...(written ? { labels: written } : {}), comments };
}
