/**
 * The untrusted slots of the documents Locus publishes besides the pull request body and the
 * failure and question comments: the status comment, the sprint's tracking dashboard, the
 * `/locus status` reply, the job summary, the answer comment, a planned issue's body, and the
 * comment when Locus did not push, the plan comment, and the app's word that CI still fails. Each takes hostile text and gives the document as published.
 */
import { renderJobSummary } from "../../../lib/task/job-summary.ts";
import { movedBranchComment } from "../../../lib/stack/push-with-rebase.ts";
import type { ModeResult } from "../../../lib/task/task-report.ts";
import { renderAnswerComment } from "../../../lib/ask/answer-comment.ts";
import { approvePlan, renderPlannedIssueBody } from "../../../lib/plan/approve-plan.ts";
import { renderPlanComment } from "../../../lib/plan/plan-comment.ts";
import { renderCiStillFails } from "../../../lib/ci/fix-ci-comment.ts";
import type { Plan } from "../../../lib/plan/plan-schema.ts";
import { renderRepositoryStatus, type RepositoryStatus } from "../../../lib/render/repository-status.ts";
import { renderTrackingDashboard } from "../../../lib/render/tracking-dashboard.ts";
import { renderStatusComment } from "../../../lib/status/status-comment.ts";
import { failureNextStep, phaseView } from "../../../lib/status/task-phase.ts";

/** A slot: its name, the document with the text in it, and the live markup Locus itself puts there. */
export type Slot = readonly [string, (text: string) => string, string[]];

const state = { deliveries: [], attempts: 1, runUrl: "https://github.com/o/r/actions/runs/1", pr: 2 };
const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };

function summary(text: string): string {
  const result: ModeResult = {
    note: text,
    tasks: [
      {
        issue: 3,
        title: text,
        status: "failed",
        reason: text,
        pr: { number: 4, url: "https://github.com/o/r/pull/4" },
        durationMs: 1,
        usage,
        costUsd: 0,
        cards: [
          { tool: "edit_file", ok: true, summary: text, durationMs: 1, diff: text },
          { tool: "run_shell", ok: false, summary: text, durationMs: 1 },
        ],
      },
    ],
  };
  return renderJobSummary("issue", result, { kind: "bubblewrap", refused: [{ host: text, count: 1 }] });
}

function repositoryStatus(text: string): string {
  const task = { number: 5, url: "https://github.com/o/r/issues/5", title: text, sprint: text, attempts: 1 };
  const status: RepositoryStatus = {
    repository: "o/r",
    about: { number: 5, status: "locus:failed", attempts: 1 },
    sprints: [
      { title: text, url: "https://github.com/o/r/milestone/1", completed: 1, total: 2, state: "running" },
    ],
    moreMilestones: 0,
    running: [task],
    queued: [],
    waiting: [{ ...task, questions: [text, text] }],
    failed: [{ ...task, lastError: text }],
    moreTasks: 0,
    pullRequests: [{ number: 6, url: "https://github.com/o/r/pull/6", title: text, issue: 5 }],
    morePullRequests: 0,
    budget: null,
  };
  return renderRepositoryStatus(status);
}

function plan(text: string): Plan {
  const task = {
    title: text,
    body: text,
    acceptanceCriteria: [text],
    priority: "high",
    type: "feature",
    complexity: "small",
  } as const;
  return {
    sprint: text,
    tasks: [
      { ...task, dependsOn: [2] },
      { ...task, dependsOn: [] },
    ],
  } as unknown as Plan;
}

function plannedIssue(text: string): string {
  const approved = approvePlan(plan(text), [2, 1]);
  if (!approved.ok || !approved.issues[0]) throw new Error("the plan should be approved");
  return renderPlannedIssueBody(approved.issues[0], 77, [8]);
}

function refusedOrder(text: string): string {
  const refused = approvePlan(plan(text));
  if (refused.ok) throw new Error("task 1 depends on task 2, so this order is refused");
  return refused.message;
}

/** A plan the planner (a model) wrote: the sprint, a title and the reasoning are its text. */
function planComment(text: string): string {
  const plan: Plan = {
    sprint: text,
    reasoning: text,
    tasks: [
      {
        title: text,
        body: "",
        priority: "high",
        type: "feature",
        dependsOn: [],
        acceptanceCriteria: [],
        complexity: "small",
      },
      {
        title: "Second",
        body: "",
        priority: "low",
        type: "docs",
        dependsOn: [1],
        acceptanceCriteria: [],
        complexity: "small",
      },
    ],
  };
  return renderPlanComment(plan);
}

export const DOCUMENT_SLOTS: readonly Slot[] = [
  ["status headline", (text) => renderStatusComment({ headline: text }, state), []],
  [
    "status failure",
    (text) =>
      renderStatusComment(
        phaseView({ kind: "failed", reason: text, nextStep: failureNextStep(text) }),
        state,
      ),
    [],
  ],
  [
    "status question",
    (text) => renderStatusComment(phaseView({ kind: "waiting", questions: [text] }), state),
    [],
  ],
  [
    "dashboard",
    (text) =>
      renderTrackingDashboard(
        { number: 1, title: text, dueOn: null },
        [{ number: 2, title: text, order: 1, labels: ["locus:failed"] }],
        { state: "stopped", message: text },
      ),
    [],
  ],
  [
    "dashboard running",
    (text) => renderTrackingDashboard({ number: 1, title: "s" }, [], { state: "running", message: text }),
    [],
  ],
  ["repository status", repositoryStatus, []],
  ["job summary", summary, []],
  [
    "answer",
    (text) =>
      renderAnswerComment({
        question: text,
        answer: text,
        sha: "abcdef1",
        commitUrl: "https://github.com/o/r/commit/abcdef1",
      }),
    [],
  ],
  ["planned issue", plannedIssue, []],
  ["refused order", refusedOrder, []],
  ["did not push", (text) => movedBranchComment(text, text, text), []],
  ["plan comment", planComment, []],
  ["CI still fails", (text) => renderCiStillFails("abcdef1234", 3, [text, "test"]), []],
];
