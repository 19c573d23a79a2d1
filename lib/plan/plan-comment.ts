/**
 * The plan comment: what people read (a table in execution order, the
 * reasoning, a dependency graph) and, hidden, the plan itself as JSON, so
 * `/locus approve` creates issues from exactly what was shown and nothing
 * lives off GitHub.
 */
import { embedJson, hiddenMarker, markerJson, withoutMarker } from "../markers.ts";
import {
  code,
  codeBlock,
  heading,
  paragraph,
  plain,
  root,
  strong,
  table,
  text,
  trustedHtml,
} from "../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../render/tree/serialize.ts";
import { untrustedMarkdown } from "../render/tree/untrusted-text.ts";
import { planSchema, type Plan } from "./plan-schema.ts";

/**
 * The planner (a model) wrote the sprint name, the titles and the reasoning,
 * so they are text in the comment's tree: no mention, closing keyword or
 * outside image reaches GitHub live. The graph is a code block, which GitHub
 * renders with Mermaid and never as Markdown.
 */
export function renderPlanComment(plan: Plan): string {
  const header = ["Order", "Title", "Priority", "Type", "Depends on"].map((title) => [plain(title)]);
  const rows = plan.tasks.map((task, index) => [
    [plain(String(index + 1))],
    [text(task.title)],
    [plain(task.priority)],
    [plain(task.type)],
    [plain(task.dependsOn.length > 0 ? task.dependsOn.join(", ") : "—")],
  ]);
  const nodes = plan.tasks.map(
    (task, index) => `  T${index + 1}["${index + 1}. ${mermaidText(task.title)}"]`,
  );
  const edges = plan.tasks.flatMap((task, index) =>
    task.dependsOn.map((from) => `  T${from} --> T${index + 1}`),
  );
  const reasoning = plan.reasoning.trim();
  return toGitHubMarkdown(
    root(
      trustedHtml(hiddenMarker("plan-comment")),
      heading(2, "Plan: ", text(plan.sprint)),
      table(["right", null, null, null, null], [header, ...rows]),
      reasoning !== "" && heading(3, "Why this order"),
      ...(reasoning !== "" ? untrustedMarkdown(reasoning) : []),
      codeBlock(["graph TD", ...nodes, ...edges].join("\n"), "mermaid"),
      paragraph(
        "Reply ",
        code("/locus approve"),
        " to create these issues in milestone ",
        strong(text(plan.sprint)),
        ", or ",
        code("/locus approve 2,1,3"),
        " to confirm another order.",
      ),
      trustedHtml(hiddenMarker("plan", embedJson(plan))),
    ),
  );
}

/** A node label Mermaid reads as one quoted string on one line. */
function mermaidText(text: string): string {
  return text.replace(/["\n\r[\]]/g, " ").slice(0, 60);
}

export type PlanReadResult = { ok: true; plan: Plan } | { ok: false; message: string };

export function readPlanComment(body: string): PlanReadResult {
  const raw = markerJson(body, "plan");
  if (raw === undefined) return { ok: false, message: "This comment holds no Locus plan." };
  const parsed = planSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      message: `The plan in this comment is damaged: ${parsed.error.issues[0]?.message ?? ""}`,
    };
  }
  return { ok: true, plan: parsed.data };
}

/** Issues already created from this plan, by task position: approving twice creates nothing twice. */
export function readApproval(body: string): Record<string, number> {
  const raw = markerJson(body, "plan-approved");
  if (typeof raw !== "object" || raw === null) return {};
  const approval: Record<string, number> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (/^[1-9][0-9]*$/.test(key) && Number.isInteger(value)) approval[key] = value as number;
  }
  return approval;
}

/** The plan comment after approval: the issues linked and the approval recorded. */
export function renderApprovedPlanComment(
  body: string,
  created: ReadonlyArray<{ position: number; issue: number }>,
): string {
  const withoutOld = withoutMarker(body, "plan-approved").replace(/\n\n\*\*Approved:\*\*[^\n]*/g, "");
  const record: Record<string, number> = {};
  for (const entry of created) record[String(entry.position)] = entry.issue;
  const links = created.map((entry) => `#${entry.issue}`).join(", ");
  return `${withoutOld}\n\n**Approved:** created ${links}.\n${hiddenMarker("plan-approved", embedJson(record))}`;
}
