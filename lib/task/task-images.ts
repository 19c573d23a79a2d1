/**
 * The task's images (issue-images.ts), fetched before any model call. Attachments that could not
 * be given to the agent are said once on the issue, as a line of the status comment, and in the
 * prompt, so neither the people nor the agent take a missing screenshot for a missing detail; the
 * task itself goes on, as it would with no image at all.
 */
import type { PromptIssue } from "../prompt/task-prompt.ts";
import { phaseView } from "../status/task-phase.ts";
import { issueImages, type IssueImages } from "./issue-images.ts";
import { advance, type TaskSession } from "./task-session.ts";

export async function imagesForTask(s: TaskSession, issue: PromptIssue): Promise<IssueImages> {
  const { ctx } = s;
  const found = await issueImages(ctx.gateway.attachments, issue, {
    server: new URL(ctx.run.repositoryUrl).origin,
    signal: ctx.signal,
  });
  if (found.images.length > 0) {
    ctx.log.info(`The agent gets ${found.images.length} image(s) from #${issue.number}.`);
  }
  if (found.leftOut.length === 0) return found;
  const line = found.leftOut.map((left) => `an image in ${left.place}: ${left.why}`).join("; ");
  ctx.log.warn(ctx.mask(`#${issue.number}: not shown to the agent: ${line}.`));
  const working = phaseView({ kind: "working" });
  await advance(s, {
    kind: "progress",
    view: { ...working, details: [{ label: "Images not shown to the agent", line }] },
  });
  return found;
}

/** The prompt names the attachments left out, with why. */
export function withImagesLeftOut(issue: PromptIssue, images: IssueImages): PromptIssue {
  if (images.leftOut.length === 0) return issue;
  const lines = images.leftOut.map((left) => `An image in ${left.from}: ${left.why}.`);
  return { ...issue, imagesLeftOut: lines };
}
