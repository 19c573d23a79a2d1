/**
 * A task moment's writes one REST call each: the way they go when GraphQL
 * cannot name them (an id unknown), and the recovery when GitHub refused one
 * field of a batched request but ran the others. Every write is attempted, so
 * one refusal never keeps the rest from landing.
 */
import type { Comment, GitHubGateway, MomentResult, MomentWrite } from "./types.ts";

export type RestWrites = Pick<GitHubGateway, "setLabels" | "updateComment" | "updateIssue" | "createComment">;

/**
 * Some of a moment's writes failed while others landed: what landed, so a caller never writes it
 * twice (the status comment above all), and the first failure as the cause.
 */
export class MomentWriteError extends Error {
  override readonly name = "MomentWriteError";
  readonly result: MomentResult;
  constructor(result: MomentResult, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.result = result;
  }
}

/**
 * The writes one REST call each, every one attempted: one that fails does not keep the others
 * from landing. A best-effort write's failure is dropped; another's is thrown once all were tried,
 * with what landed. A comment GitHub already has (`landed`) is not posted again.
 */
export async function overRest(
  rest: RestWrites,
  writes: readonly MomentWrite[],
  landed: (write: MomentWrite & { kind: "new-comment" }) => Promise<Comment | null> = () =>
    Promise.resolve(null),
): Promise<MomentResult> {
  const labels = new Map<number, string[]>();
  const comments = new Map<number, Comment>();
  let failure: unknown;
  for (const write of writes) {
    try {
      if (write.kind === "labels")
        labels.set(write.number, await rest.setLabels(write.number, [...write.labels]));
      else if (write.kind === "comment") await rest.updateComment(write.comment.id, write.body);
      else if (write.kind === "body") await rest.updateIssue(write.number, { body: write.body });
      else
        comments.set(
          write.number,
          (await landed(write)) ?? (await rest.createComment(write.number, write.body)),
        );
    } catch (error) {
      if (!(write.kind === "body" && write.bestEffort)) failure ??= error;
    }
  }
  if (failure !== undefined) throw new MomentWriteError({ labels, comments }, failure);
  return { labels, comments };
}
