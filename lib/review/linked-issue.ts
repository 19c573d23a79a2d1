/** The issue a pull request delivers: Locus's branch name says it, else a closing keyword in the body. */
import { issueOfBranch } from "../naming/branches.ts";

const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#([1-9][0-9]*)\b/i;

export function linkedIssueOf(pr: {
  readonly head: { readonly ref: string };
  readonly body: string;
}): number | undefined {
  const fromBranch = issueOfBranch(pr.head.ref);
  if (fromBranch !== undefined) return fromBranch;
  const match = CLOSING.exec(pr.body);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
