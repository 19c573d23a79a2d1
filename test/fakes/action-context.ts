/**
 * An Action's context around the typed fake gateway, for running a mode in
 * process: the real git client and agent runner are built but lazy (a mode
 * that never touches the checkout or the model, like the stale sweep, never
 * starts either), the clock is the fake's, and the log is kept in memory.
 */
import { tmpdir } from "node:os";
import { createRunner } from "../../lib/agent/create-runner.ts";
import { defaultConfig, type LocusConfig } from "../../lib/config/index.ts";
import { commitIdentity } from "../../lib/git/commit-identity.ts";
import { createGitClient } from "../../lib/git/git-client.ts";
import type { ActionContext, ActionLog } from "../../lib/task/context.ts";
import type { GitHubFake } from "./github-fake.ts";

/** A log that keeps its lines, for a test to read. */
export function memoryLog(): ActionLog & { readonly lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => void lines.push(`${level}: ${message}`);
  return {
    lines,
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    group: (_name, fn) => fn(),
  };
}

export function fakeActionContext(
  fake: GitHubFake,
  overrides: { readonly config?: LocusConfig; readonly runId?: string } = {},
): ActionContext {
  const config = overrides.config ?? defaultConfig();
  const identity = { login: fake.store.self, id: 4242 };
  const env = { PATH: process.env["PATH"] };
  const repositoryUrl = `https://github.test/${fake.repo.owner}/${fake.repo.repo}`;
  return {
    gateway: fake,
    git: createGitClient({ cwd: tmpdir(), identity: commitIdentity(identity, config.commit), env }),
    runner: createRunner("builtin", { env, shell: config.shell }),
    clock: fake.store.clock,
    log: memoryLog(),
    config,
    identity,
    run: { id: overrides.runId ?? "9001", worktreeRoot: tmpdir(), actor: "alice", repositoryUrl },
    model: config.agent.model,
    maxTurns: 10,
    signal: new AbortController().signal,
    mask: (text) => text,
    delivery: "test-delivery",
    command: "",
  };
}

/**
 * The context with an agent runner and a checkout that fail the test if
 * reached, and the places reached listed in `reached`: a refused run makes no
 * model call and no worktree, checked rather than assumed. Mode `issue`
 * fetches its base branch before it looks at any task, so that fetch is a no-op.
 */
export function refusingAgentAndCheckout(ctx: ActionContext): ActionContext & { readonly reached: string[] } {
  const reached: string[] = [];
  const refuse = (what: string) => () => {
    reached.push(what);
    throw new Error(`the refused run reached ${what}`);
  };
  return {
    ...ctx,
    reached,
    runner: { ...ctx.runner, execute: refuse("the agent runner"), isAvailable: refuse("the agent runner") },
    git: { ...ctx.git, fetchBranches: () => Promise.resolve(), worktreeAdd: refuse("a checkout") },
  };
}
