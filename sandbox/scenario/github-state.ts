/**
 * Reads of the sandbox's GitHub as a person sees it (REST as the human user)
 * and of its git remote, for the scenario's checks, the final summary and the
 * report. Nothing here reaches into Locus.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { runNodeTests } from "../world/node-test-ci.ts";
import type { RestClient, World } from "../world/start-world.ts";

const exec = promisify(execFile);

export interface IssueState {
  readonly number: number;
  readonly title: string;
  readonly state: string;
  readonly labels: readonly string[];
  readonly milestone: string | undefined;
  readonly isPull: boolean;
  readonly comments: number;
}

export interface PullState {
  readonly number: number;
  readonly title: string;
  readonly head: string;
  readonly base: string;
  readonly state: string;
  readonly merged: boolean;
  readonly additions: number;
  readonly deletions: number;
  readonly changedFiles: number;
  readonly commits: number;
  readonly body: string;
}

export interface CommentState {
  readonly issue: number;
  readonly author: string;
  readonly body: string;
}

export function reader(world: World, human: RestClient) {
  const repo = { owner: world.owner, repo: world.repo };

  async function issue(number: number): Promise<IssueState> {
    const { data } = await human.rest.issues.get({ ...repo, issue_number: number });
    return {
      number: data.number,
      title: data.title,
      state: data.state,
      labels: data.labels.map((label) => (typeof label === "string" ? label : (label.name ?? ""))),
      milestone: data.milestone?.title,
      isPull: data.pull_request !== undefined,
      comments: data.comments,
    };
  }

  async function issues(): Promise<IssueState[]> {
    const all = await human.paginate(human.rest.issues.listForRepo, { ...repo, state: "all", per_page: 100 });
    return Promise.all(all.map((item) => issue(item.number))).then((list) =>
      list.sort((a, b) => a.number - b.number),
    );
  }

  async function pull(number: number): Promise<PullState> {
    const { data } = await human.rest.pulls.get({ ...repo, pull_number: number });
    return {
      number: data.number,
      title: data.title,
      head: data.head.ref,
      base: data.base.ref,
      state: data.state,
      merged: data.merged,
      additions: data.additions,
      deletions: data.deletions,
      changedFiles: data.changed_files,
      commits: data.commits,
      body: data.body ?? "",
    };
  }

  async function pulls(): Promise<PullState[]> {
    const all = await human.paginate(human.rest.pulls.list, { ...repo, state: "all", per_page: 100 });
    return Promise.all(all.map((item) => pull(item.number))).then((list) =>
      list.sort((a, b) => a.number - b.number),
    );
  }

  /** The first pull request from `branch`, asked for by head rather than by reading every pull request. */
  async function pullForBranch(branch: string): Promise<PullState | undefined> {
    const { data } = await human.rest.pulls.list({
      ...repo,
      head: `${repo.owner}:${branch}`,
      state: "all",
      direction: "asc",
      per_page: 1,
    });
    const first = data[0];
    return first ? pull(first.number) : undefined;
  }

  async function comments(number?: number): Promise<CommentState[]> {
    const all =
      number === undefined
        ? await human.paginate(human.rest.issues.listCommentsForRepo, { ...repo, per_page: 100 })
        : await human.paginate(human.rest.issues.listComments, {
            ...repo,
            issue_number: number,
            per_page: 100,
          });
    return all.map((comment) => ({
      issue: Number(comment.issue_url.split("/").at(-1)),
      author: comment.user?.login ?? "",
      body: comment.body ?? "",
    }));
  }

  async function labelNames(): Promise<string[]> {
    const all = await human.paginate(human.rest.issues.listLabelsForRepo, { ...repo, per_page: 100 });
    return all.map((label) => label.name);
  }

  /** `git log` subjects and authors of `range` on the remote. */
  async function log(range: string): Promise<{ subject: string; author: string }[]> {
    const { stdout } = await exec("git", ["--git-dir", world.gitDir, "log", "--format=%s\t%an", range]);
    return stdout
      .split("\n")
      .filter(Boolean)
      .map((row) => {
        const [subject = "", author = ""] = row.split("\t");
        return { subject, author };
      });
  }

  async function branchExists(branch: string): Promise<boolean> {
    const { stdout } = await exec("git", ["--git-dir", world.gitDir, "branch", "--list", branch]);
    return stdout.trim() !== "";
  }

  /** Runs the sample project's own tests on `branch`'s files: proof the agent's change works. */
  async function testsPass(branch: string): Promise<boolean> {
    try {
      return (await runNodeTests(world.gitDir, `refs/heads/${branch}`)).code === 0;
    } catch {
      return false;
    }
  }

  return { issue, issues, pull, pulls, pullForBranch, comments, labelNames, log, branchExists, testsPass };
}

export type Reader = ReturnType<typeof reader>;
