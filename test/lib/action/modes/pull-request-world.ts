/**
 * A task world (test/fakes/task-world.ts) set up for rounds on a pull request
 * (modes iterate and fix-ci), in process: Locus's own PR for a fresh issue,
 * opened by mode issue as on GitHub; a run dispatched as the app does, whose
 * creation time is its trigger; and a clock the test moves. Git stamps
 * commits with the machine's time, so `catchUp()` moves the clock past the
 * newest commit on the remote: feedback written next comes after the agent's
 * last commit, as it would on GitHub.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runIssueMode } from "../../../../lib/action/modes/issue.ts";
import type { LocusConfig } from "../../../../lib/config/index.ts";
import type { ActionContext } from "../../../../lib/task/context.ts";
import { call, reply } from "../../../../sandbox/anthropic-fake/script.ts";
import { FAKE_EPOCH } from "../../../fakes/github-fake.ts";
import type { FakeReviewComment } from "../../../fakes/fake-review-records.ts";
import { startTaskWorld, type TaskWorld, type TaskWorldOptions } from "../../../fakes/task-world.ts";

export interface SteppingClock {
  now(): Date;
  advance(ms: number): void;
}

function steppingClock(start: Date): SteppingClock & { at: number } {
  const clock = {
    at: start.getTime(),
    now: () => new Date(clock.at),
    advance: (ms: number) => void (clock.at += ms),
  };
  return clock;
}

export interface RoundOptions {
  readonly command?: string;
  readonly actor?: string;
  readonly config?: LocusConfig;
  readonly maxTurns?: number;
}

export interface PullRequestWorld {
  readonly w: TaskWorld;
  readonly clock: SteppingClock;
  /** Moves the clock a second past the newest commit on the remote. */
  catchUp(): Promise<void>;
  /** Locus's PR for a fresh issue (greet.js says "Hi, " on `locus/issue-<N>`), back in review. */
  locusPullRequest(title: string): Promise<{ issue: number; pr: number; branch: string }>;
  /** Dispatches a run of `mode` on `pr` as the app does, and answers that run's context. */
  dispatch(mode: string, pr: number, options?: RoundOptions): Promise<ActionContext>;
  /** A commit by someone else on `branch`, made in the scratch clone and pushed when `push()` is called. */
  someoneElsesCommit(
    branch: string,
    path: string,
    content: string,
  ): Promise<{ sha: string; push: () => void }>;
  /** The remote head of `branch`. */
  head(branch: string): Promise<string>;
}

export async function startPullRequestWorld(options: TaskWorldOptions = {}): Promise<PullRequestWorld> {
  const clock = steppingClock(FAKE_EPOCH);
  const w = await startTaskWorld({ ...options, github: { ...options.github, clock } });

  async function catchUp() {
    const newest = await w.git([
      "for-each-ref",
      "--sort=-committerdate",
      "--count=1",
      "--format=%(committerdate:iso-strict)",
      "refs/remotes/origin",
    ]);
    clock.at = Math.max(clock.at, Date.parse(newest.trim()) + 1_000);
  }

  async function head(branch: string) {
    return (await w.git(["rev-parse", `origin/${branch}`])).trim();
  }

  return {
    w,
    clock,
    catchUp,
    head,
    async locusPullRequest(title) {
      await catchUp();
      const created = await w.github.createIssue({ title, labels: ["locus:queued"] });
      w.anthropic.setScript([
        reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
        reply(call("finish", { summary: "Greeting now says Hi." })),
      ]);
      const result = await runIssueMode(await w.context(), [created.number]);
      const pr = result.tasks[0]?.pr?.number;
      if (pr === undefined) throw new Error(`mode issue opened no PR: ${JSON.stringify(result)}`);
      await w.github.setLabels(created.number, ["locus:in-review", "agent:managed"]);
      await catchUp();
      return { issue: created.number, pr, branch: `locus/issue-${created.number}` };
    },
    async dispatch(mode, pr, options = {}) {
      const run = await w.github.dispatchWorkflow("locus.yml", "main", { mode, pr: String(pr) });
      const ctx = await w.context({
        ...(options.actor ? { actor: options.actor } : {}),
        ...(options.command ? { command: options.command } : {}),
      });
      return {
        ...ctx,
        run: { ...ctx.run, ...(run ? { url: run.url } : {}) },
        ...(options.config ? { config: options.config } : {}),
        ...(options.maxTurns ? { maxTurns: options.maxTurns } : {}),
      };
    },
    async someoneElsesCommit(branch, path, content) {
      await w.git(["checkout", "--quiet", "-B", "someone-else", `origin/${branch}`]);
      await writeFile(join(w.scratch, path), content);
      await w.git(["commit", "--quiet", "-am", `chore: someone else edits ${path}`]);
      const sha = (await w.git(["rev-parse", "HEAD"])).trim();
      return {
        sha,
        push: () =>
          execFileSync("git", ["push", "--quiet", "origin", `someone-else:refs/heads/${branch}`], {
            cwd: w.scratch,
          }),
      };
    },
  };
}

/** A line comment's text changed by `editor` at `at`, its history kept as GitHub keeps it. */
export function editLineComment(comment: FakeReviewComment, body: string, editor: string, at: string): void {
  if (comment.revisions.length === 0)
    comment.revisions.push({ editedAt: comment.createdAt, body: comment.body, editor: comment.author });
  comment.revisions.push({ editedAt: at, body, editor });
  comment.body = body;
  comment.updatedAt = at;
}
