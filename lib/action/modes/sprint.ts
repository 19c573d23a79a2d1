import type { ActionContext } from "../context.ts";
import type { ModeResult } from "../task-report.ts";

export async function runSprintMode(_ctx: ActionContext, _milestone: number): Promise<ModeResult> {
  return { tasks: [] };
}
