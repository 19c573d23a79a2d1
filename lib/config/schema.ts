import { z } from "zod";

/** The `version:` a file written for this Locus carries. Older files are migrated up to it. */
export const CURRENT_CONFIG_VERSION = 3;

const DEFAULT_MODEL = "claude-sonnet-5-5";

const DEFAULT_COMMIT_NAME = "locus[bot]";
const DEFAULT_COMMIT_EMAIL = "locus[bot]@users.noreply.github.com";

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

const nonEmpty = z.string().trim().min(1);

/** The agent runners a repository can choose (config `agent.provider`, the Action's `provider` input). */
export const PROVIDERS = ["builtin", "claude-code", "codex", "acp"] as const;

/** What an ACP agent gets from the environment unless config says otherwise: an Anthropic-backed agent's credentials. */
export const DEFAULT_ACP_ENV: readonly string[] = ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"];

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name");

const mcpServerSchema = z
  .looseObject({
    command: z
      .union([nonEmpty, z.array(nonEmpty).min(1)])
      .optional()
      .describe(
        "A stdio server to start: a command line split on spaces (no shell), or a list of arguments.",
      ),
    url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe("A Streamable HTTP server's URL."),
    env: z
      .array(envName)
      .default([])
      .describe(
        "Environment variables (its secrets) a stdio server receives; every other secret is stripped.",
      ),
    bearer: envName
      .optional()
      .describe(
        "For an HTTP server: the environment variable whose value is sent as `Authorization: Bearer`.",
      ),
    required: z
      .boolean()
      .default(false)
      .describe("Stop the task when this server cannot start; otherwise the task goes on without it."),
  })
  .refine((server) => (server.command === undefined) !== (server.url === undefined), {
    message: "give a server either command or url",
  });

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
    agent: z
      .looseObject({
        provider: z
          .enum(PROVIDERS)
          .default("builtin")
          .describe(
            "Agent runner: the built-in tool loop, Claude Code, Codex, or any Agent Client Protocol agent (acp); the Action's provider input overrides it.",
          ),
        acp: z
          .looseObject({
            command: z
              .union([nonEmpty, z.array(nonEmpty).min(1)])
              .optional()
              .describe(
                "The ACP agent to start, as a command line split on spaces (no shell) or a list of arguments, e.g. `npx -y @zed-industries/claude-code-acp`.",
              ),
            env: z
              .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name"))
              .default([...DEFAULT_ACP_ENV])
              .describe(
                "Environment variables (the agent's own credentials) passed to the ACP agent; every other secret is stripped from its environment.",
              ),
            costPerToolCallUsd: z
              .number()
              .nonnegative()
              .max(100)
              .optional()
              .describe(
                "US dollars Locus counts per tool call for an ACP agent that reports no cost of its own, so the cost limits hold on that estimate; 0 for an agent that costs nothing per use. Absent, an agent still unreported after its first 3 tool calls is stopped while a cost limit is set.",
              ),
          })
          .optional()
          .describe("The acp provider: the agent Locus starts and serves as an ACP client."),
        mcpServers: z
          .record(
            z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "expected a server name of letters, digits, _ and -"),
            mcpServerSchema,
          )
          .optional()
          .describe(
            "MCP servers whose tools the agent gets, by name: a stdio `command` or an HTTP `url`, and the names of the secrets each needs.",
          ),
        hooks: z
          .array(
            z.discriminatedUnion("when", [
              z.looseObject({
                when: z
                  .enum(["before-edit", "after-edit"])
                  .describe("Before or after the agent writes a file."),
                files: nonEmpty
                  .optional()
                  .describe("Glob over the written path (e.g. `*.ts`); every file when absent."),
                command: nonEmpty.describe(
                  "Shell command run in the worktree; `{path}` is the file, shell-quoted.",
                ),
              }),
              z.looseObject({
                when: z
                  .enum(["before-command", "after-command"])
                  .describe("Before or after the agent runs a command."),
                commands: nonEmpty
                  .optional()
                  .describe(
                    "Pattern over the agent's command, as in `shell.allow` (e.g. `npm *`), matching the whole command or one part of a chain; every command when absent.",
                  ),
                command: nonEmpty.describe(
                  "Shell command run in the worktree; `{command}` is the agent's command, shell-quoted.",
                ),
              }),
            ]),
          )
          .optional()
          .describe(
            "Commands run at Locus's tool boundary (built-in and acp providers; Claude Code and Codex run their own tools and are not reached): around every file write (a failing before-edit hook blocks the write, an after-edit hook's output goes back to the agent) and every command the agent runs (a failing before-command hook refuses the command with its output, an after-command hook's output is added to the command's result).",
          ),
        model: nonEmpty.default(DEFAULT_MODEL).describe("Model id passed to the provider."),
        maxTurns: z.int().min(1).max(500).default(40).describe("Model turns per task before it is stopped."),
        maxParallel: z
          .int()
          .min(1)
          .max(20)
          .default(3)
          .describe("Standalone issues worked at the same time (sprints are always sequential)."),
        maxCostUsd: z
          .number()
          .positive()
          .max(1000)
          .default(5)
          .describe("Spend limit per task in US dollars; the task stops and its work is kept."),
        maxCostPerDayUsd: z
          .number()
          .positive()
          .max(100_000)
          .optional()
          .describe(
            "Spend limit per UTC day for the repository's tasks in US dollars, counted from the status comments; a task past it is not started, and a running one stops at what remains. Off when absent.",
          ),
        pricing: z
          .record(
            nonEmpty,
            z.object({
              input: z.number().nonnegative().describe("US dollars per million input tokens."),
              output: z.number().nonnegative().describe("US dollars per million output tokens."),
              cacheWrite: z
                .number()
                .nonnegative()
                .optional()
                .describe("US dollars per million cache-write tokens; 1.25 × input when absent."),
              cacheRead: z
                .number()
                .nonnegative()
                .optional()
                .describe("US dollars per million cache-read tokens; 0.1 × input when absent."),
            }),
          )
          .optional()
          .describe(
            "Prices per model id for models Locus has no list price for (or to override one). A task on a model with no known price is not started, since its cost limits could not hold; Claude Code reports its own cost.",
          ),
      })
      .prefault({})
      .describe("Coding agent settings."),
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
            allow: z
              .array(nonEmpty)
              .optional()
              .describe(
                "Host patterns the sandbox may reach through its proxy (`registry.npmjs.org`, `*.example.com`, `*`). Default: the package registries of the ecosystems found in the repository.",
              ),
          })
          .prefault({})
          .describe("The sandbox's egress allowlist."),
      })
      .prefault({})
      .describe("The boundary around everything the agent runs."),
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
        name: nonEmpty.default(DEFAULT_COMMIT_NAME).describe("Author and committer name of agent commits."),
        email: nonEmpty
          .regex(/^[^\s@]+@[^\s@]+$/, "expected an email address")
          .default(DEFAULT_COMMIT_EMAIL)
          .describe("Author and committer email of agent commits."),
      })
      .prefault({})
      .describe("Identity of the commits Locus makes."),
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
