/**
 * Each issue has one Locus status comment, edited in place. Its hidden marker
 * carries the small state that must survive restarts and replicas: the
 * deliveries already acted on (exactly-once dispatch) and the attempt count
 * (the retry budget). The visible part is for people.
 */
import { z } from "zod";
import { embedJson, hiddenMarker, markerKey, markerOpen, MARKER_CLOSE } from "../markers.ts";
import { formatUsd } from "../render/markdown.ts";
import {
  link,
  list,
  paragraph,
  root,
  small,
  strong,
  trustedHtml,
  type Inline,
} from "../render/tree/nodes.ts";
import { toGitHubMarkdown } from "../render/tree/serialize.ts";
import { untrustedInline } from "../render/tree/untrusted-text.ts";

/** The sticky-comment key: the gateway puts `<!-- locus:status -->` on the comment's first line. */
export const STATUS_MARKER = markerKey("status");
const STATUS_LINE = hiddenMarker("status");
const STATE_OPEN = markerOpen("state");
const STATE_CLOSE = MARKER_CLOSE;
/** Enough to dedupe redeliveries of recent events without growing forever. */
const MAX_DELIVERIES = 50;

/** Automatic fix-ci rounds on the PR (lib/ci/auto-fix-policy.ts). */
const ciFixSchema = z.object({
  /** Failing heads a round was started for; none gets a second. */
  heads: z.array(z.string()).default([]),
  /** Automatic rounds in a row without a human push or comment in between. */
  streak: z.number().int().nonnegative().default(0),
  lastAt: z.string().optional(),
  /** The "what is left" comment was posted for the current streak. */
  stopped: z.boolean().default(false),
});

export type CiFixState = z.infer<typeof ciFixSchema>;

const stateSchema = z.object({
  deliveries: z.array(z.string()).default([]),
  attempts: z.number().int().nonnegative().default(0),
  runUrl: z.string().optional(),
  pr: z.number().int().positive().optional(),
  /** The artifact page of the session record of the run that delivered `pr` (docs/session-record.md). */
  recordUrl: z.string().optional(),
  costUsd: z.number().nonnegative().optional(),
  lastError: z.string().optional(),
  /** Set while the latest run's agent ran without a sandbox (config `sandbox.mode: off`). */
  unsandboxed: z.boolean().optional(),
  /** Who asked for the work (by label, command or answer): the person a question mentions. */
  requester: z.string().optional(),
  /** The delivery the app dispatched for when it checked `requester`'s write access (lib/trust/app-checked-requester.ts). */
  requesterDelivery: z.string().optional(),
  /** The agent's open questions, posted on the issue in comment `commentId`; a writer's answer after it resumes the task. */
  waiting: z
    .object({ questions: z.array(z.string()), commentId: z.number().int(), askedAt: z.string() })
    .optional(),
  /** The UTC day a run last refused to start it for the daily cost cap: said once that day; the sweep starts it on a later day. */
  capRefused: z.string().optional(),
  /** What this tasks cost on one UTC day (the daily cost cap adds these up). */
  daySpend: z.object({ day: z.string(), usd: z.number().nonnegative() }).optional(),
  ci: ciFixSchema.optional(),
});

/** The line every status comment and job summary of an unsandboxed run carries. */
export const UNSANDBOXED_NOTE =
  "⚠️ The agent ran without a sandbox (`sandbox.mode: off`): its commands could read the runner's files and reach any host.";

export type StatusState = z.infer<typeof stateSchema>;

export const EMPTY_STATE: StatusState = { deliveries: [], attempts: 0 };

export function isStatusComment(body: string): boolean {
  return body.startsWith(STATUS_LINE);
}

/** The state in a status comment (with or without its marker line); a missing or damaged marker reads as empty. */
export function readStatusState(body: string | undefined): StatusState {
  if (!body) return EMPTY_STATE;
  const start = body.indexOf(STATE_OPEN);
  if (start < 0) return EMPTY_STATE;
  const end = body.indexOf(STATE_CLOSE, start + STATE_OPEN.length);
  if (end < 0) return EMPTY_STATE;
  try {
    const parsed = stateSchema.safeParse(JSON.parse(body.slice(start + STATE_OPEN.length, end)));
    return parsed.success ? parsed.data : EMPTY_STATE;
  } catch {
    return EMPTY_STATE;
  }
}

export function hasDelivery(state: StatusState, delivery: string): boolean {
  return state.deliveries.includes(delivery);
}

export function withDelivery(state: StatusState, delivery: string): StatusState {
  if (hasDelivery(state, delivery)) return state;
  return { ...state, deliveries: [...state.deliveries, delivery].slice(-MAX_DELIVERIES) };
}

/** One bullet below the headline: a label in bold ("What to do", "Question") and one line of Locus's Markdown. */
export interface StatusDetail {
  readonly label: string;
  readonly line: string;
}

export interface StatusView {
  /**
   * One line saying where the work is: "Queued", "Working (run 123)", "PR #45 opened". Locus's own
   * Markdown, whose parts from elsewhere the caller made inert; it is read again as untrusted text
   * (code spans and web links kept, the rest text), so nothing in it can act whatever a caller put in.
   */
  readonly headline: string;
  readonly details?: readonly StatusDetail[];
}

/** The comment's body below the marker line, which the gateway's sticky-comment upsert adds; built as a tree. */
export function renderStatusComment(view: StatusView, state: StatusState): string {
  const facts: Inline[] = [];
  const fact = (...parts: Inline[]) => facts.push(...(facts.length > 0 ? [" · "] : []), ...parts);
  if (state.runUrl) fact(link(state.runUrl, "workflow run"));
  if (state.pr !== undefined) fact(`PR #${state.pr}`);
  if (state.recordUrl) fact(link(state.recordUrl, "session record"));
  if (state.costUsd !== undefined) fact(`cost ${formatUsd(state.costUsd)}`);
  if (state.attempts > 0) fact(`attempt ${state.attempts}`);
  const details = view.details ?? [];
  return toGitHubMarkdown(
    root(
      paragraph(strong("Locus:"), " ", ...oneLine(view.headline)),
      details.length > 0 &&
        list(details.map((detail) => [strong(`${detail.label}:`), " ", ...oneLine(detail.line)])),
      facts.length > 0 && small(...facts),
      state.unsandboxed && paragraph(...untrustedInline(UNSANDBOXED_NOTE)),
      trustedHtml(`${STATE_OPEN}${embedJson(state)}${STATE_CLOSE}`),
    ),
  );
}

function oneLine(markdown: string): Inline[] {
  return untrustedInline(markdown.replace(/\s+/g, " ").trim());
}
