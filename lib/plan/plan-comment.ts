/**
 * The plan comment: what people read (a table in execution order, the
 * reasoning, a dependency graph) and, hidden, the plan itself as JSON, so
 * `/locus approve` creates issues from exactly what was shown and nothing
 * lives off GitHub.
 */
import { safeToPublish } from "../render/safe-text.ts";
import { hiddenMarker, tableCell } from "../render/markdown.ts";
import { planSchema, type Plan } from "./plan-schema.ts";

const PLAN_OPEN = "<!-- locus:plan ";
const CLOSE = " -->";
export const APPROVED_OPEN = "<!-- locus:plan-approved ";

function embed(value: unknown): string {
  return JSON.stringify(value).replace(/-->/g, "--\\u003e");
}

export function renderPlanComment(plan: Plan): string {
  const rows = plan.tasks.map((task, index) => {
    const depends = task.dependsOn.length > 0 ? task.dependsOn.join(", ") : "—";
    return `| ${index + 1} | ${tableCell(safeToPublish(task.title))} | ${task.priority} | ${task.type} | ${depends} |`;
  });
  const edges = plan.tasks.flatMap((task, index) =>
    task.dependsOn.map((from) => `  T${from} --> T${index + 1}`),
  );
  const nodes = plan.tasks.map(
    (task, index) => `  T${index + 1}["${index + 1}. ${mermaidText(task.title)}"]`,
  );
  return [
    hiddenMarker("plan-comment"),
    `## Plan: ${plan.sprint}`,
    "",
    "| Order | Title | Priority | Type | Depends on |",
    "| ---: | --- | --- | --- | --- |",
    ...rows,
    "",
    plan.reasoning.trim() ? `### Why this order\n\n${safeToPublish(plan.reasoning.trim())}\n` : "",
    "```mermaid",
    "graph TD",
    ...nodes,
    ...edges,
    "```",
    "",
    "Reply `/locus approve` to create these issues in milestone " +
      `**${tableCell(plan.sprint)}**, or \`/locus approve 2,1,3\` to confirm another order.`,
    `${PLAN_OPEN}${embed(plan)}${CLOSE}`,
  ].join("\n");
}

function mermaidText(text: string): string {
  return text.replace(/["\n\r[\]]/g, " ").slice(0, 60);
}

function extract(body: string, open: string): unknown {
  const start = body.indexOf(open);
  if (start < 0) return undefined;
  const end = body.indexOf(CLOSE, start + open.length);
  if (end < 0) return undefined;
  try {
    return JSON.parse(body.slice(start + open.length, end)) as unknown;
  } catch {
    return undefined;
  }
}

export type PlanReadResult = { ok: true; plan: Plan } | { ok: false; message: string };

export function readPlanComment(body: string): PlanReadResult {
  const raw = extract(body, PLAN_OPEN);
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
  const raw = extract(body, APPROVED_OPEN);
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
  const withoutOld = body
    .replace(/\n?<!-- locus:plan-approved [^\n]*? -->/g, "")
    .replace(/\n\n\*\*Approved:\*\*[^\n]*/g, "");
  const record: Record<string, number> = {};
  for (const entry of created) record[String(entry.position)] = entry.issue;
  const links = created.map((entry) => `#${entry.issue}`).join(", ");
  return `${withoutOld}\n\n**Approved:** created ${links}.\n${APPROVED_OPEN}${embed(record)}${CLOSE}`;
}
