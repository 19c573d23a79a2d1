/**
 * The typed fake's branches and pull requests following a real bare remote,
 * as GitHub's follow what was pushed: before a pull request is opened, read
 * or diffed, the fake learns the remote's heads (branches made through the
 * fake's API alone stay as they are), each pull request's head
 * commit is its branch's, and its diff is git's three-dot diff of base and
 * head (what GitHub shows on the PR). For the task world (task-world.ts).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { GitHubFake } from "./github-fake.ts";

const exec = promisify(execFile);

async function git(remote: string, args: readonly string[]): Promise<string> {
  return (await exec("git", [...args], { cwd: remote })).stdout;
}

export function followingRemote(fake: GitHubFake, remote: string): GitHubFake {
  const { store } = fake;
  const learnHeads = async () => {
    const refs = await git(remote, ["for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads"]);
    for (const line of refs.trim().split("\n")) {
      const [ref, sha] = line.split(" ");
      if (ref && sha) store.branches.set(ref, sha);
    }
    for (const issue of store.issues.values()) {
      const sha = issue.pull && store.branches.get(issue.pull.head.ref);
      if (issue.pull && sha) issue.pull.head.sha = sha;
    }
  };
  return {
    ...fake,
    async createPullRequest(fields) {
      await learnHeads();
      return fake.createPullRequest(fields);
    },
    async getPullRequest(number) {
      await learnHeads();
      return fake.getPullRequest(number);
    },
    async getPullRequestFeedback(number, options) {
      await learnHeads();
      return fake.getPullRequestFeedback(number, options);
    },
    async findPullRequestByHead(branch, opts) {
      await learnHeads();
      return fake.findPullRequestByHead(branch, opts);
    },
    async getPullRequestDiff(number) {
      await learnHeads();
      const pull = store.issues.get(number)?.pull;
      if (pull && store.branches.has(pull.base.ref) && store.branches.has(pull.head.ref))
        pull.diff = await git(remote, ["diff", `${pull.base.ref}...${pull.head.ref}`]);
      return fake.getPullRequestDiff(number);
    },
  };
}
