/**
 * The Action re-checks who asked before it checks out anything or calls a
 * model: anyone with write access can dispatch the workflow by hand with any
 * inputs. A person needs write access. A bot is trusted only when it is
 * Locus's own identity (the app's bot, named by config `commit.name`, or
 * `github-actions[bot]` when Locus runs on the workflow's own token and
 * dispatches its retries with it) or a bot config `bots.allowed` lists; any
 * other bot (an integration someone installed, a bot that can dispatch
 * workflows) is refused, since the app never dispatched for it.
 */
import { mayTriggerWork } from "../auth/actor-policy.ts";
import type { LocusConfig } from "../config/index.ts";
import type { GitHubGateway } from "../github/index.ts";

/** The bots whose runs the Action trusts. */
function trustedBots(config: Pick<LocusConfig, "commit" | "bots">): string[] {
  return [config.commit.name, "github-actions[bot]", ...config.bots.allowed];
}

export async function refuseRequester(
  gateway: GitHubGateway,
  actor: string,
  config: Pick<LocusConfig, "commit" | "bots">,
): Promise<string | undefined> {
  if (actor === "") return "the run has no actor (GITHUB_ACTOR is empty)";
  if (actor.toLowerCase().endsWith("[bot]")) {
    const trusted = trustedBots(config).some((bot) => bot.toLowerCase() === actor.toLowerCase());
    return trusted
      ? undefined
      : `the run was started by ${actor}, which is neither Locus (config commit.name) nor a bot listed in config bots.allowed`;
  }
  const permission = await gateway.getCollaboratorPermission(actor);
  if (mayTriggerWork(permission)) return undefined;
  return `@${actor} has ${permission} permission; Locus takes work only from people with write access`;
}
