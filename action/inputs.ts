/** The Action's inputs (action.yml), parsed once with zod: every input named, every mode's required target checked. */
import { z } from "zod";
import { PROVIDERS } from "../lib/config/schema.ts";
import { MODES } from "../lib/dispatch/dispatch-inputs.ts";
import type { ModeRequest } from "../lib/dispatch/mode-request.ts";

const INPUT_NAMES = [
  "mode",
  "issue",
  "pr",
  "milestone",
  "command",
  "delivery",
  "github-token",
  "app-url",
  "app-slug",
  "anthropic-api-key",
  "model",
  "provider",
  "max-turns",
  "config-path",
  "registry-credentials",
  "setup-cache",
] as const;

export type InputName = (typeof INPUT_NAMES)[number];

const number = z
  .string()
  .trim()
  .regex(/^[1-9][0-9]{0,9}$/, "expected a positive number")
  .transform(Number);
const optionalNumber = z.union([z.literal("").transform(() => undefined), number]);

const schemas = {
  mode: z.enum(MODES),
  issue: z
    .string()
    .trim()
    .transform((text) => (text === "" ? [] : text.split(/[\s,]+/)))
    .pipe(z.array(number)),
  pr: optionalNumber,
  milestone: optionalNumber,
  command: z.string().trim(),
  delivery: z.string().trim().max(200),
  "github-token": z.string().trim().min(1, "a token is required (default: github.token)"),
  "app-url": z.union([
    z.literal(""),
    z
      .string()
      .trim()
      .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, "expected the Locus app's http(s) URL")
      .transform((url) => url.replace(/\/+$/, "")),
  ]),
  // A GitHub App's slug: lower-case letters, digits and hyphens (the name it was registered with).
  "app-slug": z.union([
    z.literal(""),
    z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9-]{0,99}$/i, "expected a GitHub App slug such as acme-locus"),
  ]),
  "anthropic-api-key": z.string().trim(),
  model: z.string().trim(),
  // Empty: the config file's `agent.provider` decides.
  provider: z.union([z.literal("").transform(() => undefined), z.enum(PROVIDERS)]),
  "max-turns": optionalNumber,
  "config-path": z.string().trim().min(1),
  // Secret name → value for `sandbox.network.credentials`; the message never repeats the text (it holds secrets).
  "registry-credentials": z
    .string()
    .trim()
    .transform((text, context) => {
      if (text === "") return {};
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: "custom", message: "expected a JSON object of secret names to values" });
        return z.NEVER;
      }
    })
    .pipe(
      z.record(z.string(), z.string(), {
        error: "expected a JSON object of secret names to string values",
      }),
    ),
  // The reusable workflow's restored setup cache (runner.temp/locus-setup-cache); empty: none.
  "setup-cache": z.union([
    z.literal("").transform(() => undefined),
    z.string().trim().regex(/^\//, "expected an absolute path"),
  ]),
} satisfies Record<InputName, z.ZodType<unknown, string>>;

const inputSchema = z.object(schemas);

export type Inputs = z.output<typeof inputSchema>;

export function parseInputs(read: (name: InputName) => string): Inputs {
  const raw = Object.fromEntries(INPUT_NAMES.map((name) => [name, read(name)]));
  const parsed = inputSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`);
  throw new Error(`Invalid inputs: ${problems.join("; ")}`);
}

/** What to do, or why the inputs do not say it. */
export function modeRequest(inputs: Inputs): ModeRequest {
  switch (inputs.mode) {
    case "issue":
      if (inputs.issue.length === 0) throw new Error("mode issue needs the issue input");
      return { mode: "issue", issues: [...new Set(inputs.issue)] };
    case "sprint":
      if (inputs.milestone === undefined) throw new Error("mode sprint needs the milestone input");
      return { mode: "sprint", milestone: inputs.milestone };
    case "iterate":
      if (inputs.pr === undefined) throw new Error("mode iterate needs the pr input");
      return { mode: "iterate", pr: inputs.pr };
    case "review":
      if (inputs.pr === undefined) throw new Error("mode review needs the pr input");
      return { mode: "review", pr: inputs.pr };
    case "fix-ci":
    case "rebase":
      if (inputs.pr === undefined) throw new Error(`mode ${inputs.mode} needs the pr input`);
      return { mode: inputs.mode, pr: inputs.pr };
    case "plan": {
      const [issue] = inputs.issue;
      if (issue === undefined || inputs.issue.length > 1) throw new Error("mode plan needs one issue input");
      return { mode: "plan", issue };
    }
    case "ask": {
      if (inputs.pr !== undefined) return { mode: "ask", pr: inputs.pr };
      const [issue] = inputs.issue;
      if (issue === undefined || inputs.issue.length > 1)
        throw new Error("mode ask needs the pr input or one issue input");
      return { mode: "ask", issue };
    }
    case "stale":
      return { mode: "stale" };
  }
}
