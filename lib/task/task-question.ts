/**
 * How a started task ends when it needs a person's answer: the agent's (or
 * Locus's own) questions go on the issue together, the work is saved on the wip
 * branch, and the lifecycle marks the task waiting until a writer answers.
 */
import { saveCheckpoint } from "./checkpoint.ts";
import type { TaskOutcome } from "./task-plan.ts";
import { advance, reportHead, scratchIn, spentSoFar, type TaskSession } from "./task-session.ts";

/**
 * `keepSaved`: the wip branch already holds the work as it should stay (a checkpoint whose rebase
 * stopped on a conflict), so nothing in the worktree is saved over it.
 */
export async function waitForAnswer(
  s: TaskSession,
  questions: readonly string[],
  options: { keepSaved?: string } = {},
): Promise<TaskOutcome> {
  const { ctx, issue, worktree, start } = s;
  const asked = s.result;
  let checkpoint = options.keepSaved;
  if (worktree && start && checkpoint === undefined) {
    checkpoint = await saveCheckpoint({
      worktree,
      issue,
      reason: "it asked a question and waits for the answer",
      summary: ctx.mask(asked?.summary ?? ""),
      startSha: (await worktree.revParse(start.ref)) ?? "",
      remoteWip: start.remoteWip,
      ...(await scratchIn(worktree, asked)),
    });
  }
  const masked = questions.map((question) => ctx.mask(question));
  const requester = s.found.requester ?? (ctx.run.actor.endsWith("[bot]") ? undefined : ctx.run.actor);
  // The question goes out first: the status comment records where it is.
  const [comment] = (
    await advance(s, {
      kind: "asked",
      questions: masked,
      requester,
      checkpoint,
      usd: asked?.costUsd ?? 0,
      at: ctx.clock.now(),
    })
  ).comments;
  if (comment) {
    await advance(s, {
      kind: "question-posted",
      questions: masked,
      commentId: comment.id,
      askedAt: comment.createdAt,
    });
  }
  return {
    report: {
      ...reportHead(s),
      status: "waiting",
      reason: `waiting for an answer: ${masked.join(" / ").slice(0, 300)}`,
      ...spentSoFar(s, asked),
      ...(checkpoint ? { checkpoint } : {}),
      ...(asked?.summary ? { summary: ctx.mask(asked.summary) } : {}),
    },
    worktree,
    labels: s.task.labels,
    attempts: s.task.attempts,
  };
}

/**
 * What a task whose saved work conflicts with its moved parent asks: Locus's own question naming the
 * files (and what the agent said of them), then any question the agent asked itself.
 */
export function checkpointConflictQuestions(
  wip: string,
  parent: string,
  files: readonly string[],
  said: { readonly summary: string; readonly questions: readonly string[] },
): string[] {
  const list = files.length > 0 ? files.map((file) => `\`${file}\``).join(", ") : "(unknown files)";
  const summary = said.summary.replace(/\s+/g, " ").trim().slice(0, 1_000);
  const why = summary
    ? ` The agent could not reconcile them; it said: ${summary}`
    : " The agent could not reconcile them.";
  return [
    `The work saved on \`${wip}\` was started on an older \`${parent}\`, and replaying it onto \`${parent}\` as it is now conflicts in ${list}.${why} How should the two be combined? You can also rebase \`${wip}\` onto \`${parent}\` yourself and push it, or delete it to start over, before answering.`,
    ...said.questions,
  ];
}
