/**
 * A ruleset requiring signed commits on every branch of the task world's bare remote, checked as
 * the simulator checks it (sandbox/github-sim/git-rules.ts): its pre-receive hook refuses a push
 * carrying a commit GitHub did not make, with GitHub's GH013 text, which git relays to the
 * pusher as `remote:` lines. A commit is Verified when its sha is a line of `verifiedFile`
 * (remote-commits.ts writes them). A person's own push bypasses the rule (`PERSON_BYPASS`), as the
 * bundle harness's pushes to its bare directory meet no ruleset.
 * https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/available-rules-for-rulesets#require-signed-commits
 */
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RULES_CHECK } from "../../sandbox/github-sim/git-rules.ts";

/** `git push` options for a push that meets no server-side hook. */
export const PERSON_BYPASS = ["--receive-pack=git -c core.hooksPath=/dev/null receive-pack"] as const;

const quoted = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

export async function requireSignedCommits(
  remote: string,
  options: { readonly verifiedFile: string; readonly rulesUrl: string },
): Promise<void> {
  const settings = [
    "SIM_SIGNED_INCLUDE='*'",
    "SIM_SIGNED_EXCLUDE=''",
    `SIM_VERIFIED_FILE=${quoted(options.verifiedFile)}`,
    `SIM_RULES_URL=${quoted(options.rulesUrl)}`,
    "SIM_PUSH_PROTECTION=0",
  ];
  const hook = join(remote, "hooks", "pre-receive");
  await writeFile(hook, RULES_CHECK.replace(/^#!\/bin\/sh\n/, `#!/bin/sh\n${settings.join("\n")}\n`));
  await chmod(hook, 0o755);
}
