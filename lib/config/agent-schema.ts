/**
 * The `agent:` section of `.github/locus.yml`: which runner, which model,
 * its MCP servers, checks, limits and prices. The largest section by far,
 * apart so the top-level schema reads as a list of sections.
 */
import { z } from "zod";
import { bedrockSchema, MODEL_HOSTS, vertexSchema } from "./model-host-schema.ts";
import { envName, nonEmpty } from "./schema-primitives.ts";

const DEFAULT_MODEL = "claude-sonnet-5-5";

/** The agent runners a repository can choose (config `agent.provider`, the Action's `provider` input). */
export const PROVIDERS = ["builtin", "claude-code", "codex", "acp"] as const;

/** What an ACP agent gets from the environment unless config says otherwise: an Anthropic-backed agent's credentials. */
export const DEFAULT_ACP_ENV: readonly string[] = ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"];

const mcpServerSchema = z
  .looseObject({
    command: z
      .union([nonEmpty, z.array(nonEmpty).min(1)])
      .optional()
      .describe(
        "A stdio server to start: a command line split on spaces (no shell), or a list of arguments. It starts outside the repository; `{worktree}` in an argument is the worktree's path.",
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

export const agentSchema = z
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
            when: z.enum(["before-edit", "after-edit"]).describe("Before or after the agent writes a file."),
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
    modelHost: z
      .enum(MODEL_HOSTS)
      .default("anthropic")
      .describe(
        "Where the built-in runner's model runs: Anthropic's API (the anthropic-api-key input), or Amazon Bedrock or Google Vertex AI with credentials from the run's GitHub OIDC token (agent.bedrock, agent.vertex).",
      ),
    bedrock: bedrockSchema.optional(),
    vertex: vertexSchema.optional(),
    models: z
      .array(nonEmpty)
      .max(50)
      .optional()
      .describe(
        "Other model ids a writer may choose for one task with `/locus run model=<id>` or `/locus iterate model=<id>`; each must have a known price (or one in `agent.pricing`) unless the provider reports its own cost. Absent or empty: only `agent.model`.",
      ),
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
  .superRefine((agent, context) => {
    if (agent.modelHost === "bedrock" && agent.bedrock === undefined)
      context.addIssue({
        code: "custom",
        path: ["bedrock"],
        message: "agent.modelHost bedrock needs agent.bedrock (region, roleArn)",
      });
    if (agent.modelHost === "vertex" && agent.vertex === undefined)
      context.addIssue({
        code: "custom",
        path: ["vertex"],
        message: "agent.modelHost vertex needs agent.vertex (region, projectId, workloadIdentityProvider)",
      });
  })
  .prefault({})
  .describe("Coding agent settings.");
