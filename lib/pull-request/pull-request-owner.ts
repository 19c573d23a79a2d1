/**
 * Whose pull request a `/locus iterate`, `fix-ci` or `rebase` lands on, and whether Locus may work
 * on it: its own (opened by Locus on a `locus/issue-<N>` branch), a person's in this repository
 * (only with `pr.humanPrs`, and never a rebase: that would rewrite the person's commits), or a
 * fork's (never: Locus cannot push there, and a fork's code is not this repository's to trust).
 */
import { issueOfBranch } from "../naming/branches.ts";

export type PullRequestCommandName = "iterate" | "fix-ci" | "rebase";

export interface PullRequestOwnerFacts {
  readonly command: PullRequestCommandName;
  readonly openedByLocus: boolean;
  readonly headRef: string;
  /** The head branch lives in another repository (or one since deleted). */
  readonly fromFork: boolean;
  /** The repository's `pr.humanPrs` setting. */
  readonly humanPrs: boolean;
}

export type PullRequestOwner =
  | { readonly kind: "locus"; readonly issue: number }
  | { readonly kind: "person" }
  | { readonly kind: "refused"; readonly reply: string };

export function pullRequestOwner(facts: PullRequestOwnerFacts): PullRequestOwner {
  // Opened by Locus, not merely on a branch of that name: a fork's PR can be called anything.
  const issue = facts.openedByLocus && !facts.fromFork ? issueOfBranch(facts.headRef) : undefined;
  if (issue !== undefined) return { kind: "locus", issue };
  const asked = `\`/locus ${facts.command}\``;
  if (facts.fromFork)
    return {
      kind: "refused",
      reply: `${asked} does not work on a pull request from a fork: Locus pushes only to branches of this repository.`,
    };
  if (!facts.humanPrs)
    return {
      kind: "refused",
      reply: `${asked} works on pull requests Locus opened (branch \`locus/issue-<N>\`). To let it work on people's own pull requests in this repository, set \`pr.humanPrs: true\` in \`.github/locus.yml\`.`,
    };
  if (facts.command === "rebase")
    return {
      kind: "refused",
      reply: `${asked} does not rebase a person's pull request: rebasing rewrites their commits. Rebase it yourself, or ask for \`/locus iterate\`, which only adds commits.`,
    };
  return { kind: "person" };
}
