/**
 * What a run reads from its checkout before anything else runs there: the remote's URL (every later
 * fetch and push goes to it, whatever the repository's config says by then) and the commit checked
 * out (the trusted commit whose instruction files the agent is given). A runner of its own reads
 * them, with no author since it never commits, so the reads need not wait for the token exchange
 * that names the author. Its commands mount what the checkout's client mounts, so they start the
 * sandbox session that client goes on using.
 */
import { createGitRunner, revParseCommit, standingMounts, type GitRunnerOptions } from "./git-runner.ts";

export interface CheckoutFacts {
  readonly remoteUrl: string;
  /** Null in a repository without a commit yet. */
  readonly head: string | null;
}

export async function readCheckoutFacts(
  options: Omit<GitRunnerOptions, "identity">,
  remote = "origin",
): Promise<CheckoutFacts> {
  const { git } = createGitRunner(options, standingMounts(options));
  const remoteUrl = (await git(["remote", "get-url", remote])).stdout.trim();
  return { remoteUrl, head: await revParseCommit(git, "HEAD") };
}
