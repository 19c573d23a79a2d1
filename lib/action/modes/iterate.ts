import type { ActionContext } from "../context.ts";
import type { ModeResult } from "../task-report.ts";

export async function runIterateMode(_ctx: ActionContext, _pr: number): Promise<ModeResult> {
  return { tasks: [] };
}
