/**
 * Costs never silently vanish, whatever the mode: a model Locus cannot price
 * would count as free and switch the cost limits off, so every mode that
 * calls a model refuses it as it starts — one reply in the thread that asked,
 * saying which price to add and how to ask again, and no checkout or model
 * call. Coding tasks (modes issue and sprint) are refused per task instead
 * (run-task.ts), because there the refusal also clears the issue's status.
 */
import type { CommentPort } from "../github/index.ts";
import type { ActionContext } from "./context.ts";
import type { ModeRequest } from "../dispatch/mode-request.ts";
import { reportWithoutRun, type ModeResult } from "./task-report.ts";
import { taskModelRefusal } from "../cost/model-choice.ts";
import { safeToPublish } from "../render/safe-text.ts";

type Gate =
  /** Refused here: what the mode would have done, and the command that asks again. */
  | { readonly doing: string; readonly askAgain: string }
  /** Refused by each task it starts. */
  | "per-task"
  /** Calls no model. */
  | "no-model";

const GATES: Readonly<Record<ModeRequest["mode"], Gate>> = {
  issue: "per-task",
  sprint: "per-task",
  stale: "no-model",
  iterate: { doing: "address the review feedback", askAgain: "`/locus iterate`" },
  "fix-ci": { doing: "fix the CI failure", askAgain: "`/locus fix-ci`" },
  rebase: { doing: "rebase this pull request", askAgain: "`/locus rebase`" },
  review: { doing: "review this pull request", askAgain: "`/locus review`" },
  plan: { doing: "make a plan", askAgain: "`/locus plan <goal>`" },
  ask: { doing: "answer the question", askAgain: "`/locus ask <question>`" },
};

/** The issue or pull request a mode answers in; undefined for modes without one thread. */
function threadOf(request: ModeRequest): number | undefined {
  switch (request.mode) {
    case "iterate":
    case "fix-ci":
    case "rebase":
    case "review":
      return request.pr;
    case "plan":
      return request.issue;
    case "ask":
      return request.pr ?? request.issue;
    case "issue":
    case "sprint":
    case "stale":
      return undefined;
  }
}

/** The refusal's result when the mode must not start on this model; undefined when it may. */
export async function refuseUnpricedMode(
  ctx: Pick<ActionContext, "runner" | "model" | "modelChosen" | "config" | "log" | "mask"> & {
    readonly gateway: Pick<CommentPort, "createComment">;
  },
  request: ModeRequest,
): Promise<ModeResult | undefined> {
  const gate = GATES[request.mode];
  const thread = threadOf(request);
  if (typeof gate === "string" || thread === undefined) return undefined;
  const agent = { ...ctx.config.agent, provider: ctx.runner.name };
  const reason = taskModelRefusal(ctx.model, ctx.modelChosen === true, agent, gate.askAgain);
  if (!reason) return undefined;
  ctx.log.warn(`Did not ${gate.doing} on #${thread}: ${reason}`);
  await ctx.gateway.createComment(thread, ctx.mask(safeToPublish(`Locus did not ${gate.doing}. ${reason}`)));
  return {
    tasks: [reportWithoutRun({ issue: thread, title: `${request.mode} #${thread}` }, "skipped", reason)],
    note: `The model \`${ctx.model}\` ${ctx.modelChosen === true ? "may not run here" : "has no known price"}: did not ${gate.doing}.`,
  };
}
