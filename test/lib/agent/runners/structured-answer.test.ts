import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../lib/agent/events.ts";
import { createRunner } from "../../../../lib/agent/create-runner.ts";
import type { ExecuteOptions, Provider } from "../../../../lib/agent/runner.ts";
import { answerValue, strictJsonSchema } from "../../../../lib/agent/runners/structured-answer.ts";
import { createProposePlanTool } from "../../../../lib/agent/tools/propose-plan.ts";
import { createSubmitReviewTool } from "../../../../lib/agent/tools/submit-review.ts";
import type { Plan } from "../../../../lib/plan/plan-schema.ts";
import { planSchema } from "../../../../lib/plan/plan-schema.ts";
import type { SubmittedReview } from "../../../../lib/review/review-schema.ts";
import { installFakeCli } from "./fake-cli.ts";

let cwd: string;
let events: AgentEvent[];

const PLAN_ANSWER = {
  sprint: "Polite greetings",
  reasoning: "The fix comes before its test.",
  tasks: [
    {
      title: "Fix the greeting typo",
      body: "src/greet.js says helo.",
      priority: "high",
      type: "bug",
      dependsOn: [],
      acceptanceCriteria: ["greet returns hello <name>"],
      complexity: "small",
    },
    {
      title: "Test the greeting",
      body: null,
      priority: null,
      type: "chore",
      dependsOn: [1],
      acceptanceCriteria: null,
      complexity: null,
    },
  ],
};

function runner(provider: Provider, path: string) {
  return createRunner(provider, {
    env: { PATH: path, ANTHROPIC_API_KEY: "sk-ant-cli", OPENAI_API_KEY: "sk-openai" },
    shell: { allow: ["*"], deny: [], timeoutSeconds: 60 },
  });
}

function execute(overrides: Partial<ExecuteOptions>): ExecuteOptions {
  return {
    prompt: { system: "Plan the work.", context: "Repository: greet.js", task: "Plan: greet politely" },
    cwd,
    model: "claude-sonnet-4-6",
    maxTurns: 12,
    readOnly: true,
    onEvent: (event) => events.push(event),
    ...overrides,
  };
}

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "locus-structured-"));
  events = [];
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("a CLI provider's structured answer for the task's own tool", () => {
  it("claude-code: passes the tool's schema as --json-schema and hands structured_output to the tool", async () => {
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-answer.jsonl",
      cwd,
      answer: PLAN_ANSWER,
    });
    const plans: Plan[] = [];

    const result = await runner("claude-code", cli.path).execute(
      execute({ tools: [createProposePlanTool((plan) => plans.push(plan))] }),
    );

    const args = await cli.args();
    const schema = JSON.parse(args[args.indexOf("--json-schema") + 1] ?? "{}") as Record<string, unknown>;
    expect(schema).toEqual(strictJsonSchema(planSchema));
    expect(await cli.stdin()).toContain("This run has no `propose_plan` tool and no `finish` tool");
    expect(result).toMatchObject({ success: true, stop: "finished", summary: "Proposed 2 tasks" });
    expect(plans).toHaveLength(1);
    expect(plans[0]?.tasks[1]).toEqual({
      title: "Test the greeting",
      body: "",
      priority: "medium",
      type: "chore",
      dependsOn: [1],
      acceptanceCriteria: [],
      complexity: "medium",
    });
    expect(result.toolCalls.map((call) => [call.name, call.ok])).toEqual([
      ["Read", true],
      ["propose_plan", true],
    ]);
    expect(events.filter((e) => e.type === "tool_completed").map((e) => e.tool)).toEqual([
      "Read",
      "propose_plan",
    ]);
  });

  it("claude-code: an answer the schema refuses fails the run, saying what is wrong, and records nothing", async () => {
    const cli = await installFakeCli({
      name: "claude",
      version: "2.1.3 (Claude Code)",
      fixture: "claude-code-answer.jsonl",
      cwd,
      answer: { sprint: "Empty", reasoning: null, tasks: [] },
    });
    const plans: Plan[] = [];

    const result = await runner("claude-code", cli.path).execute(
      execute({ tools: [createProposePlanTool((plan) => plans.push(plan))] }),
    );

    expect(result).toMatchObject({ success: false, stop: "failed", summary: "" });
    expect(result.error).toMatch(/^its final answer is not a valid `propose_plan` input \(tasks: /);
    expect(plans).toEqual([]);
    expect(events.at(-2)).toEqual({ type: "error", message: result.error, retryable: false });
  });

  it("codex: passes a strict schema file as --output-schema and takes the last message as the answer", async () => {
    const review = {
      summary: "The typo fix is right.",
      verdict: "REQUEST_CHANGES",
      findings: [{ path: "src/greet.js", line: 2, side: null, severity: "minor", body: "Add a test." }],
    };
    const cli = await installFakeCli({
      name: "codex",
      version: "codex-cli 0.58.0",
      fixture: "codex-answer.jsonl",
      cwd,
      answer: review,
    });
    const reviews: SubmittedReview[] = [];

    const result = await runner("codex", cli.path).execute(
      execute({ model: "gpt-5-codex", tools: [createSubmitReviewTool((r) => reviews.push(r))] }),
    );

    const args = await cli.args();
    expect(args.slice(-3, -1)[0]).toBe("--output-schema");
    const schema = JSON.parse(await cli.outputSchema()) as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(["summary", "verdict", "findings"]);
    expect(result).toMatchObject({ success: true, summary: "Reviewed: REQUEST_CHANGES, 1 findings" });
    expect(reviews).toEqual([
      {
        summary: "The typo fix is right.",
        verdict: "REQUEST_CHANGES",
        findings: [{ path: "src/greet.js", line: 2, severity: "minor", body: "Add a test." }],
      },
    ]);
  });

  it("codex: a last message that is not the JSON object asked for fails the run with one clear error", async () => {
    const cli = await installFakeCli({
      name: "codex",
      version: "codex-cli 0.58.0",
      fixture: "codex-answer.jsonl",
      cwd,
      answer: "Looks good to me!",
    });

    const result = await runner("codex", cli.path).execute(
      execute({ model: "gpt-5-codex", tools: [createSubmitReviewTool(() => undefined)] }),
    );

    expect(result).toMatchObject({ success: false, stop: "failed" });
    expect(result.error).toBe(
      "its final answer is not a valid `submit_review` input (the answer: Invalid input: expected object, received string)",
    );
  });

  it("asks for no structured answer when the task has no tool of its own", async () => {
    const cli = await installFakeCli({
      name: "codex",
      version: "codex-cli 0.58.0",
      fixture: "codex-answer.jsonl",
      cwd,
    });

    const result = await runner("codex", cli.path).execute(execute({ model: "gpt-5-codex" }));

    expect(await cli.args()).not.toContain("--output-schema");
    expect(await cli.stdin()).not.toContain("final answer");
    expect(result).toMatchObject({ success: true, summary: "I studied the repository." });
  });
});

describe("reading a final answer", () => {
  it("prefers the structured output, then the text as JSON, bare or in the last fenced block", () => {
    expect(answerValue({ a: 1 }, "ignored")).toEqual({ a: 1 });
    expect(answerValue(undefined, ' {"a": 2} ')).toEqual({ a: 2 });
    expect(answerValue(null, 'Here it is:\n```json\n{"a": 3}\n```\nand\n```\n{"a": 4}\n```')).toEqual({
      a: 4,
    });
    expect(answerValue(undefined, "no JSON here")).toBeUndefined();
  });

  it("makes every property required and nullable when optional, with no other properties", () => {
    const schema = strictJsonSchema(planSchema) as {
      required: string[];
      additionalProperties: boolean;
      properties: { reasoning: unknown; tasks: { items: { required: string[] } } };
    };
    expect(schema.required).toEqual(["sprint", "reasoning", "tasks"]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.reasoning).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
    expect(schema.properties.tasks.items.required).toEqual([
      "title",
      "body",
      "priority",
      "type",
      "dependsOn",
      "acceptanceCriteria",
      "complexity",
    ]);
  });
});
