/** The open pull requests based on a branch: the PRs stacked on a PR are those based on its head branch. */
import { z } from "zod";
import { pullRequestSchema } from "./schemas.ts";
import type { Transport } from "./transport-types.ts";
import type { PullStackReads } from "./types.ts";

export function pullStackOps(t: Transport): PullStackReads {
  return {
    pullsOnto(base) {
      return t.rest(
        "GET /repos/{owner}/{repo}/pulls",
        { base, state: "open", per_page: 100 },
        z.array(pullRequestSchema),
      );
    },
  };
}
