/**
 * Who Locus is: the bot user of this GitHub App (`<slug>[bot]`), looked up
 * once with the app's JWT, and `github-actions[bot]`, the identity of the
 * workflows' `GITHUB_TOKEN`, which the scheduled stale sweep (and any run
 * without the app's token) writes labels with. Their events never trigger
 * Locus, and their status labels are never stripped as a foreign bot's. Only
 * the repository's own workflows hold that token, and only writers change them.
 */
import type { Probot } from "probot";
import type { Log } from "../lib/github/index.ts";

const ACTIONS_BOT = "github-actions[bot]";

export function resolveSelfLogins(app: Probot, log: Log): () => Promise<readonly string[]> {
  let logins: Promise<readonly string[]> | undefined;
  return () => {
    logins ??= app
      .auth()
      .then((octokit) => octokit.request("GET /app"))
      .then(({ data }) => [`${data?.slug ?? "locus"}[bot]`, ACTIONS_BOT])
      .catch((error: unknown) => {
        logins = undefined;
        log.warn(
          `could not look up the app's bot login: ${error instanceof Error ? error.message : String(error)}`,
        );
        return ["locus[bot]", ACTIONS_BOT];
      });
    return logins;
  };
}
