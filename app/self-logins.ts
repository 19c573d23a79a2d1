/**
 * Who Locus is: the bot user of this GitHub App (`<slug>[bot]`), looked up
 * once with the app's JWT. Its events never trigger Locus.
 */
import type { Probot } from "probot";
import type { Log } from "../lib/github/index.ts";

export function resolveSelfLogins(app: Probot, log: Log): () => Promise<readonly string[]> {
  let logins: Promise<readonly string[]> | undefined;
  return () => {
    logins ??= app
      .auth()
      .then((octokit) => octokit.request("GET /app"))
      .then(({ data }) => [`${data?.slug ?? "locus"}[bot]`])
      .catch((error: unknown) => {
        logins = undefined;
        log.warn(
          `could not look up the app's bot login: ${error instanceof Error ? error.message : String(error)}`,
        );
        return ["locus[bot]"];
      });
    return logins;
  };
}
