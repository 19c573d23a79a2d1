/**
 * The review event Locus posts for a verdict. GitHub refuses REQUEST_CHANGES
 * (and APPROVE) from a pull request's author, so on a PR its own identity
 * opened Locus comments with the same findings; APPROVE is never an option.
 */
import type { Verdict } from "./review-schema.ts";
import { isLocus } from "../github/locus-identity.ts";

export function reviewEvent(verdict: Verdict, prAuthor: string, selfLogins: readonly string[]): Verdict {
  return isLocus(selfLogins, prAuthor) ? "COMMENT" : verdict;
}
