import type { ActionContext } from "../context.ts";
import type { ModeResult } from "../task-report.ts";

export async function runStaleMode(_ctx: ActionContext): Promise<ModeResult> {
  return { tasks: [] };
}
