/**
 * The schema of `.github/locus.yml`: every key Locus reads, its default and
 * its description (which the generated JSON Schema shows in editors).
 */
import { z } from "zod";
import { agentSchema } from "./agent-schema.ts";
import { registryCredentialsSchema } from "./registry-credentials-schema.ts";
import { hostRules, nonEmpty } from "./schema-primitives.ts";

export { DEFAULT_ACP_ENV, PROVIDERS } from "./agent-schema.ts";

/** The `version:` a file written for this Locus carries. Older files are migrated up to it. */
export const CURRENT_CONFIG_VERSION = 3;

/**
 * Only Locus pushes: the agent's shell may not push, add remotes or rewrite git config, and the
 * transport options below run arbitrary programs (`--upload-pack=<cmd>`, `ext::<cmd>` remotes).
 */
export const DEFAULT_SHELL_DENY: readonly string[] = [
  "git push*",
  "git remote*",
  "git config*",
  "*--receive-pack*",
  "*--upload-pack*",
  "*ext::*",
];

// Loose objects everywhere: a key this Locus does not know may belong to a newer one, so it is
// kept rather than stripped. `prefault({})` runs a group's own defaults when the group is absent.
export const configSchema = z
  .looseObject({
    version: z
      .int()
      .min(1)
      .default(CURRENT_CONFIG_VERSION)
      .describe("Config format version; older files are migrated when loaded."),
    workflow: z
      .string()
      .regex(/^[\w.-]+\.ya?ml$/, "expected a workflow file name such as locus.yml")
      .default("locus.yml")
      .describe("Workflow file under .github/workflows/ that the app dispatches."),
    baseBranch: z
      .string()
      .trim()
      .regex(/^[^\s~^:?*[\\]+$/, "expected a branch name")
      .optional()
      .describe("Branch tasks start from and PRs target; the repository's default branch when absent."),
    agent: agentSchema,
    shell: z
      .looseObject({
        allow: z
          .array(nonEmpty)
          .default(["*"])
          .describe("Glob patterns (`*` = any characters) a shell command must match."),
        deny: z
          .array(nonEmpty)
          .default([...DEFAULT_SHELL_DENY])
          .describe("Glob patterns that refuse a command even if allowed; deny wins."),
        timeoutSeconds: z
          .int()
          .min(1)
          .max(3600)
          .default(300)
          .describe("Longest a single shell command may run."),
      })
      .prefault({})
      .describe("The agent's shell tool policy."),
    retry: z
      .looseObject({
        budget: z
          .int()
          .min(0)
          .max(20)
          .default(3)
          .describe("Times a failed issue is re-queued automatically; 0 never re-queues."),
        staleAfterMinutes: z
          .int()
          .min(1)
          .max(10_080)
          .default(60)
          .describe("An in-progress issue with no live run for this long is re-queued."),
      })
      .prefault({})
      .describe("Automatic re-queueing of failed and stuck issues."),
    iterate: z
      .looseObject({
        onChangesRequested: z
          .boolean()
          .default(true)
          .describe("A review requesting changes on a Locus PR starts an iterate run."),
        allowFeedbackFromNonCollaborators: z
          .boolean()
          .default(false)
          .describe("Include feedback from people without write access in the agent's prompt."),
        resolveThreads: z
          .boolean()
          .default(true)
          .describe(
            "Resolve each review thread Locus addressed, after replying in it; off, Locus only replies and the reviewer resolves.",
          ),
      })
      .prefault({})
      .describe("Iterating on pull request feedback."),
    prompt: z
      .looseObject({
        includeOutsiders: z
          .boolean()
          .default(false)
          .describe(
            "Show the agent comments from people without write access, fenced and labelled as theirs; off, they never reach a prompt.",
          ),
      })
      .prefault({})
      .describe("What text reaches the agent's prompts."),
    sprint: z
      .looseObject({
        stopOnFailure: z.boolean().default(true).describe("Stop a sprint at its first failed task."),
        rebaseBeforeTask: z
          .boolean()
          .default(true)
          .describe("Rebase the sprint's stack on the base branch before each task."),
      })
      .prefault({})
      .describe("Milestone (sprint) runs."),
    bots: z
      .looseObject({
        allowed: z
          .array(nonEmpty)
          .default([])
          .describe("Bot logins (e.g. dependabot[bot]) whose events may trigger Locus."),
      })
      .prefault({})
      .describe("Bots allowed to trigger Locus."),
    review: z
      .looseObject({
        onOpen: z.boolean().default(false).describe("Review every pull request when it is opened."),
      })
      .prefault({})
      .describe("Pull request reviews."),
    pr: z
      .looseObject({
        draft: z.boolean().default(false).describe("Open Locus pull requests as drafts."),
        blockOnVulnerable: z
          .boolean()
          .default(false)
          .describe(
            "Stop before opening a pull request whose branch brings in a dependency with a known vulnerability (GitHub's dependency review); otherwise it is reported in the PR body.",
          ),
        humanPrs: z
          .boolean()
          .default(false)
          .describe(
            "Let a writer's `/locus iterate` and `/locus fix-ci` work on a pull request a person opened in this repository (never a fork's), adding a commit on top of theirs without rewriting them.",
          ),
        restackOnMerge: z
          .boolean()
          .default(true)
          .describe(
            "When a stacked Locus PR merges, retarget the PR above it to the merged PR's base and rebase it without the lower task's commits.",
          ),
      })
      .prefault({})
      .describe("Pull requests Locus opens."),
    sandbox: z
      .looseObject({
        mode: z
          .enum(["required", "off"])
          .default("required")
          .describe(
            "required: every process the agent starts runs in a bubblewrap sandbox, and a run that cannot make one stops before asking a model; off: processes run unconfined, and every status comment says so.",
          ),
        network: z
          .looseObject({
            allow: hostRules
              .optional()
              .describe(
                "Hosts the sandbox may reach through its proxy, as `host` or `host:port` (`registry.npmjs.org`, `*.example.com`, `*`, `git.example.com:8443`); without a port, 443 and 80. Default: the package registries of the ecosystems found in the repository.",
              ),
            credentials: registryCredentialsSchema,
          })
          .prefault({})
          .describe("The sandbox's egress allowlist."),
      })
      .prefault({})
      .describe("The boundary around everything the agent runs."),
    setup: z
      .looseObject({
        commands: z
          .array(nonEmpty)
          .optional()
          .describe(
            "Shell commands run in the task's worktree inside the sandbox before the agent starts (dependency installs, code generation); the agent starts from their result. A failing command fails the task before any model call. Absent: the ecosystem's install command for the lockfile found (`npm ci`, `pnpm install --frozen-lockfile`, ...); `[]`: no setup.",
          ),
        network: z
          .looseObject({
            allow: hostRules
              .optional()
              .describe(
                "Hosts added to the sandbox's egress allowlist while setup runs, and only then (same syntax as `sandbox.network.allow`). Default: the package registries of the ecosystems found in the repository.",
              ),
          })
          .prefault({})
          .describe("Extra egress for setup only; the agent's own commands never get these hosts."),
      })
      .prefault({})
      .describe("What runs in the worktree before the agent, like a developer's first install."),
    ci: z
      .looseObject({
        autoFix: z
          .boolean()
          .default(true)
          .describe(
            "A CI failure on an open Locus PR's head starts a fix-ci run (`/locus fix-ci` works either way).",
          ),
        maxAttempts: z
          .int()
          .min(0)
          .max(10)
          .default(2)
          .describe(
            "Automatic fix-ci rounds in a row without a human push or comment in between; then Locus says what is left and stops.",
          ),
      })
      .prefault({})
      .describe("Keeping Locus's pull requests green."),
    commit: z
      .looseObject({
        name: nonEmpty
          .optional()
          .describe("Author name shown on agent commits; Locus's bot login (`<slug>[bot]`) when absent."),
        email: nonEmpty
          .regex(/^[^\s@]+@[^\s@]+$/, "expected an email address")
          .optional()
          .describe(
            "Author email shown on agent commits; the bot's noreply address (`<id>+<slug>[bot]@users.noreply.github.com`) when absent.",
          ),
        via: z
          .enum(["git", "api"])
          .default("git")
          .describe(
            "How commits reach GitHub: `git` pushes the commits made in the sandbox; `api` recreates each one through GitHub's `createCommitOnBranch`, so GitHub signs it and shows it as Verified (needed where a ruleset requires signed commits). With `api`, GitHub shows Locus's bot as the author, whatever `name` and `email` say.",
          ),
      })
      .prefault({})
      .describe(
        "Who agent commits show as their author, and how they reach GitHub. The committer is always Locus's bot.",
      ),
  })
  .describe("Locus configuration (.github/locus.yml)");

export type LocusConfig = z.output<typeof configSchema>;

/** The configuration a repository without `.github/locus.yml` runs with. */
export function defaultConfig(): LocusConfig {
  return configSchema.parse({});
}

/** JSON Schema of the file as users write it (defaults make every key optional), for editors. */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(configSchema, { io: "input" });
}
