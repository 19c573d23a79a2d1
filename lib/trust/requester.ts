/**
 * The Action re-checks who asked before it checks out anything or calls a
 * model: anyone with write access can dispatch the workflow by hand with any
 * inputs. A person needs write access. A bot is trusted only when it is
 * Locus itself (the bot this run acts as, learned from GitHub, or
 * `github-actions[bot]` when Locus runs on the workflow's own token and
 * dispatches its retries with it) or a bot config `bots.allowed` lists; any
 * other bot (an integration someone installed, a bot that can dispatch
 * workflows) is refused, since the app never dispatched for it. A person who
 * started a `workflow_dispatch` run was checked by GitHub itself: it lets only
 * people with write access run a workflow by hand or re-run one
 * (https://docs.github.com/en/actions/managing-workflow-runs-and-deployments/managing-workflow-runs/manually-running-a-workflow),
 * so only a run another event started (a workflow on `issues`, say) looks the
 * person up.
 */
import { mayTriggerWork } from "./actor-policy.ts";
import { isLocus } from "../github/locus-identity.ts";
import type { LocusConfig } from "../config/index.ts";
import type { RepositoryReads } from "../github/index.ts";

export async function refuseRequester(
  gateway: Pick<RepositoryReads, "getCollaboratorPermission">,
  run: { readonly actor: string; readonly dispatched: boolean },
  selfLogins: readonly string[],
  config: Pick<LocusConfig, "bots">,
): Promise<string | undefined> {
  const { actor } = run;
  if (actor === "") return "the run has no actor (GITHUB_ACTOR is empty)";
  if (actor.toLowerCase().endsWith("[bot]")) {
    if (isLocus(selfLogins, actor) || isLocus(config.bots.allowed, actor)) return undefined;
    return (
      `the run was started by ${actor}, which is neither Locus (${selfLogins.join(", ")}) nor a bot listed in config bots.allowed` +
      " (if it is your Locus app, give the Action its slug as the app-slug input, or use app-url)"
    );
  }
  if (run.dispatched) return undefined;
  const permission = await gateway.getCollaboratorPermission(actor);
  if (mayTriggerWork(permission)) return undefined;
  return `@${actor} has ${permission} permission; Locus takes work only from people with write access`;
}
