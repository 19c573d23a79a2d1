/**
 * The task's images (issue-images.ts), fetched before any model call. Attachments that could not
 * be given to the agent are said on the issue, as a line the status comment keeps while the agent
 * runs, and in the prompt, so neither the people nor the agent take a missing screenshot for a
 * missing detail; the task itself goes on, as it would with no image at all.
 */
import type { PromptIssue } from "../prompt/task-prompt.ts";
import type { StatusDetail } from "../status/status-comment.ts";
import { phaseView } from "../status/task-phase.ts";
import { issueImages, type IssueImages } from "./issue-images.ts";
import { advance, type TaskSession } from "./task-session.ts";

export interface TaskImages extends IssueImages {
  /** The status comment's line on the images left out, kept while the agent runs; empty when none. */
  readonly details: readonly StatusDetail[];
}

export async function imagesForTask(s: TaskSession, issue: PromptIssue): Promise<TaskImages> {
  const { ctx } = s;
  const found = await issueImages(ctx.gateway.attachments, issue, {
    server: new URL(ctx.run.repositoryUrl).origin,
    signal: ctx.signal,
  });
  if (found.images.length > 0) {
    ctx.log.info(`The agent gets ${found.images.length} image(s) from #${issue.number}.`);
  }
  if (found.leftOut.length === 0) return { ...found, details: [] };
  const line = found.leftOut.map((left) => `an image in ${left.place}: ${left.why}`).join("; ");
  ctx.log.warn(ctx.mask(`#${issue.number}: not shown to the agent: ${line}.`));
  const details = [{ label: "Images not shown to the agent", line }];
  await advance(s, { kind: "progress", view: { ...phaseView({ kind: "working" }), details } });
  return { ...found, details };
}

/** The prompt names the attachments left out, with why. */
export function withImagesLeftOut(issue: PromptIssue, images: IssueImages): PromptIssue {
  if (images.leftOut.length === 0) return issue;
  const lines = images.leftOut.map((left) => `An image in ${left.from}: ${left.why}.`);
  return { ...issue, imagesLeftOut: lines };
}
