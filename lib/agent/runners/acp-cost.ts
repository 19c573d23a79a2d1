/**
 * What an ACP agent costs, and when Locus stops one whose cost it cannot count. ACP carries cost in
 * one place: `usage_update.cost`, the session's cumulative cost, which an agent may send or not
 * (token counts exist only in an unstable field at the end of the turn, too late to hold a limit).
 * An agent that never reports would count as $0, silently turning the cost limits off, so:
 *
 * - a reported cost in US dollars is the task's cost, held against the limit as it arrives;
 * - else config `agent.acp.costPerToolCallUsd` prices each tool call (an estimate; 0 for an agent
 *   that costs nothing per use), held against the limit the same way, until a real report replaces it;
 * - else, while a cost limit is set, the agent may finish its first few tool calls unreported (time
 *   for its first report to arrive); when it starts one more with still no report, it is stopped.
 *
 * Pure: the runner feeds it what the agent does and acts on the answer.
 */

/** Tool calls an agent may finish before its first cost report is due. */
export const UNREPORTED_COST_GRACE_CALLS = 3;

export interface AcpCostMeter {
  /** The agent's cumulative cost in USD; returns what it adds to the task's cost so far. */
  reported(totalUsd: number): number;
  /**
   * The agent started its `calls`-th tool call. Returns the estimate it adds (0 when none), or why
   * the agent must stop because its cost cannot be counted.
   */
  toolCallStarted(calls: number): { readonly addUsd: number } | { readonly stop: string };
  /** The task's cost: reported, else estimated, else 0. */
  total(): number;
  /** Said at the end when the cost was not reported (what it counted instead); undefined when reported. */
  warning(): string | undefined;
}

export function createAcpCostMeter(options: {
  readonly costPerToolCallUsd?: number;
  /** The task's cost limit (its own, or what remains of the day's); undefined when none holds. */
  readonly maxCostUsd?: number;
}): AcpCostMeter {
  let reported: number | undefined;
  let estimated = 0;
  const price = options.costPerToolCallUsd;

  return {
    reported(totalUsd) {
      // The first report replaces the estimate counted so far.
      const before = reported ?? estimated;
      reported = totalUsd;
      return totalUsd - before;
    },
    toolCallStarted(calls) {
      if (reported !== undefined) return { addUsd: 0 };
      if (price !== undefined) {
        estimated += price;
        return { addUsd: price };
      }
      if (options.maxCostUsd === undefined || calls <= UNREPORTED_COST_GRACE_CALLS) return { addUsd: 0 };
      return {
        stop:
          `the agent reported no cost (ACP usage_update in USD) in its first ${UNREPORTED_COST_GRACE_CALLS} tool calls, ` +
          `so Locus could not hold it to the cost limit of $${options.maxCostUsd.toFixed(2)}. ` +
          "Give `agent.acp.costPerToolCallUsd` in `.github/locus.yml` (what to count per tool call; 0 for an agent that costs nothing per use), " +
          "or use an agent that reports its cost",
      };
    },
    total: () => reported ?? estimated,
    warning() {
      if (reported !== undefined) return undefined;
      if (price !== undefined)
        return `the ACP agent reported no cost (session usage_update): Locus counted $${price} per tool call (agent.acp.costPerToolCallUsd)`;
      return "the ACP agent reported no cost (session usage_update): Locus reports $0; set agent.acp.costPerToolCallUsd to count it";
    },
  };
}
