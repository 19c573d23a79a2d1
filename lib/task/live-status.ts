/**
 * Keeps an issue's status comment current while its agent runs: "Working —
 * running `npm test` (turn 7)". Fed by the runner's events, it edits the
 * comment at once on a phase change and at most once per interval for tool
 * changes, so status edits stay few whatever the agent does. No timer: a tool
 * change inside the interval waits for the next event after it. Edits run one
 * at a time in the background (the agent never waits on GitHub), a newer view
 * replaces one not yet sent, and a failing edit is logged, never fatal.
 * `close()` drops what is not yet sent and waits for the edit in flight, so
 * the task's final status, written after it, is always the last word.
 */
import type { AgentEvent } from "../agent/events.ts";
import type { StatusDetail, StatusView } from "../status/status-comment.ts";
import { phaseView, toolActivity, type TaskPhase, type ToolActivity } from "../status/task-phase.ts";
import type { Clock } from "./context.ts";

/** Tool changes shown at most this often: a few edits a minute is a glance, not a stream. */
const LIVE_STATUS_INTERVAL_MS = 30_000;

export interface LiveStatusOptions {
  /** Writes the status comment (with its hidden state); never called while a previous write runs. */
  readonly write: (view: StatusView) => Promise<unknown>;
  readonly clock: Clock;
  /** The worktree: absolute paths in tool calls are shown relative to it. */
  readonly cwd: string;
  readonly mask: (text: string) => string;
  readonly warn: (message: string) => void;
  readonly intervalMs?: number;
  /**
   * When the caller itself last wrote the status comment (ms since the epoch):
   * that write counts as the last tool edit, so the first tool change waits
   * out the interval from it. Unset, the first tool is shown at once.
   */
  readonly lastWriteAt?: number;
  /** Lines every view keeps under its headline while the agent runs (the images it is not shown). */
  readonly details?: readonly StatusDetail[];
}

export interface LiveStatus {
  /** The runner's event listener: returns at once, never throws. */
  readonly onEvent: (event: AgentEvent) => void;
  /** Shows a phase as soon as the edit in flight, if any, is done. */
  phase(phase: TaskPhase): void;
  /** Sends nothing more and resolves once the edit in flight has settled; never rejects. */
  close(): Promise<void>;
}

export function createLiveStatus(options: LiveStatusOptions): LiveStatus {
  const interval = options.intervalMs ?? LIVE_STATUS_INTERVAL_MS;
  let closed = false;
  let turn = 0;
  let shown: string | undefined;
  let lastToolEdit: number | undefined = options.lastWriteAt;
  let deferred: { readonly activity: ToolActivity; readonly turn: number } | undefined;
  let pending: StatusView | undefined;
  let inFlight: Promise<void> | undefined;

  function send(): void {
    if (inFlight || !pending || closed) return;
    const view = pending;
    pending = undefined;
    // Started in a promise, so even a write that throws at once is caught and logged.
    inFlight = Promise.resolve()
      .then(async () => {
        const details = [...(view.details ?? []), ...(options.details ?? [])];
        await options.write({
          ...view,
          headline: options.mask(view.headline),
          ...(details.length > 0 ? { details } : {}),
        });
      })
      .catch((error: unknown) => {
        options.warn(
          options.mask(
            `Could not update the status comment: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      })
      .finally(() => {
        inFlight = undefined;
        send();
      });
  }

  function show(view: StatusView): void {
    if (closed || view.headline === shown) return;
    shown = view.headline;
    pending = view;
    send();
  }

  function showTool(activity: ToolActivity, atTurn: number, now: number): void {
    lastToolEdit = now;
    deferred = undefined;
    show(phaseView({ kind: "working", activity, ...(atTurn > 0 ? { turn: atTurn } : {}) }));
  }

  function onEvent(event: AgentEvent): void {
    if (closed) return;
    try {
      const now = options.clock.now().getTime();
      const due = lastToolEdit === undefined || now - lastToolEdit >= interval;
      if (event.type === "turn") turn = event.turn;
      if (event.type === "tool_started") {
        const activity = toolActivity(event.tool, event.params, options.cwd);
        if (due) showTool(activity, turn, now);
        else deferred = { activity, turn };
      } else if (deferred && due) {
        showTool(deferred.activity, deferred.turn, now);
      }
    } catch (error) {
      options.warn(`Could not describe the agent's progress: ${String(error)}`);
    }
  }

  return {
    onEvent,
    phase: (phase) => show(phaseView(phase)),
    async close() {
      closed = true;
      pending = undefined;
      deferred = undefined;
      while (inFlight) await inFlight;
    },
  };
}
