/** installation.created / installation_repositories.added: create the labels in each repository. */
import type { Context } from "probot";
import { installLabels } from "../../lib/app/install-labels.ts";
import { createGateway, type Log } from "../../lib/github/index.ts";

type InstallationContext = Context<"installation.created"> | Context<"installation_repositories.added">;

export async function onInstallation(context: InstallationContext, log: Log): Promise<void> {
  const payload = context.payload;
  const repositories =
    "repositories_added" in payload ? payload.repositories_added : (payload.repositories ?? []);
  for (const repository of repositories) {
    const [owner, repo] = repository.full_name.split("/");
    if (!owner || !repo) continue;
    const gateway = createGateway({
      // Creating labels reads no Locus record.
      ownLogins: [],
      octokit: context.octokit,
      repo: { owner, repo },
      log,
    });
    const result = await installLabels(gateway);
    log.info(
      `${repository.full_name}: labels created ${result.created.length}, updated ${result.updated.length}`,
    );
  }
}
