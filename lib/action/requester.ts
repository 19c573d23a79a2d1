/**
 * The Action re-checks who asked before it checks out anything or calls a
 * model: anyone with write access can dispatch the workflow by hand with any
 * inputs. A bot actor is the app that dispatched the run (or Actions itself on
 * a schedule); the app checked the person behind it, so the run trusts it.
 */
import { mayTriggerWork } from "../auth/actor-policy.ts";
import type { GitHubGateway } from "../github/index.ts";

export async function refuseRequester(gateway: GitHubGateway, actor: string): Promise<string | undefined> {
  if (actor === "") return "the run has no actor (GITHUB_ACTOR is empty)";
  if (actor.endsWith("[bot]")) return undefined;
  const permission = await gateway.getCollaboratorPermission(actor);
  if (mayTriggerWork(permission)) return undefined;
  return `@${actor} has ${permission} permission; Locus takes work only from people with write access`;
}
