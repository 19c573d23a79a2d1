/**
 * A task's own tool (`propose_plan` in plan mode, `submit_review` in review
 * mode) for a CLI provider, which cannot be given Locus's tools: its input
 * schema becomes the CLI's structured output, and the final answer, validated
 * with the same zod schema, is handed to the tool as if the model had called
 * it. Claude Code takes the schema as `--json-schema` and reports the answer
 * in the result's `structured_output`; `codex exec` takes it as a file with
 * `--output-schema` and answers with the JSON as its last message.
 */
import { z } from "zod";
import type { AgentTool, ToolContext } from "../tool.ts";

export interface StructuredAnswer {
  readonly tool: AgentTool;
  /** The input schema in the strict form both CLIs accept. */
  readonly jsonSchema: Record<string, unknown>;
  /** Appended to the task: the rules name the tool, which the CLI does not have. */
  readonly instruction: string;
}

export type RecordedAnswer =
  { readonly ok: true; readonly summary: string } | { readonly ok: false; readonly error: string };

type Json = Record<string, unknown>;

/** Keywords of the strict subset (OpenAI's structured outputs); zod validates the rest afterwards. */
const KEPT = ["type", "description", "enum", "minimum", "maximum", "minItems", "maxItems"];

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Strict JSON Schema: every property required and no other allowed, an
 * optional property (one with a default) nullable instead of absent.
 */
function strict(node: Json): Json {
  const out: Json = {};
  for (const key of KEPT) if (key in node) out[key] = node[key];
  if (isObject(node["items"])) out["items"] = strict(node["items"]);
  if (isObject(node["properties"])) {
    const required = new Set(Array.isArray(node["required"]) ? node["required"] : []);
    const properties: Json = {};
    for (const [name, child] of Object.entries(node["properties"])) {
      if (!isObject(child)) continue;
      const property = strict(child);
      properties[name] = required.has(name) ? property : { anyOf: [property, { type: "null" }] };
    }
    out["properties"] = properties;
    out["required"] = Object.keys(properties);
    out["additionalProperties"] = false;
  }
  return out;
}

export function strictJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return strict(z.toJSONSchema(schema, { io: "input" }));
}

/** The task's one tool as a structured answer; a CLI has no way to offer more than one. */
export function structuredAnswerOf(tools: readonly AgentTool[] | undefined): StructuredAnswer | undefined {
  const [tool, ...more] = tools ?? [];
  if (tool === undefined) return undefined;
  if (more.length > 0) {
    throw new Error(
      `a CLI provider can give one structured answer, not ${tools?.length} tools (${tools?.map((t) => t.name).join(", ")})`,
    );
  }
  return {
    tool,
    jsonSchema: strictJsonSchema(tool.inputSchema),
    instruction: [
      `## Your final answer (instead of the \`${tool.name}\` tool)`,
      `This run has no \`${tool.name}\` tool and no \`finish\` tool: when you are done, your final answer is the JSON object the output schema describes, which Locus takes as the \`${tool.name}\` call. What it is: ${tool.description}`,
    ].join("\n\n"),
  };
}

/** The answer as the CLI gave it: its structured output, else its final text as JSON, bare or in a fenced block. */
export function answerValue(structured: unknown, text: string): unknown {
  if (structured !== undefined && structured !== null) return structured;
  const fenced = [...text.matchAll(/```(?:json)?\s*\n([\s\S]*?)\n```/g)].at(-1)?.[1];
  for (const candidate of [text.trim(), fenced]) {
    if (candidate === undefined || candidate === "") continue;
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // Not JSON: try the next form.
    }
  }
  return undefined;
}

/** Nulls stand for "absent" in the strict schema: dropped so the zod defaults apply. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, child]) => child !== null)
      .map(([key, child]) => [key, withoutNulls(child)]),
  );
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "the answer"}: ${issue.message}`)
    .join("; ");
}

/** Validates the answer with the tool's own schema and runs the tool with it. */
export async function recordAnswer(
  answer: StructuredAnswer,
  value: unknown,
  context: ToolContext,
): Promise<RecordedAnswer> {
  const name = answer.tool.name;
  if (value === undefined) {
    return { ok: false, error: `its final answer held no JSON for \`${name}\`` };
  }
  const parsed = answer.tool.inputSchema.safeParse(withoutNulls(value));
  if (!parsed.success) {
    return {
      ok: false,
      error: `its final answer is not a valid \`${name}\` input (${describeIssues(parsed.error)})`,
    };
  }
  const result = await answer.tool.run(parsed.data, context);
  return result.isError ? { ok: false, error: result.content } : { ok: true, summary: result.summary };
}
