import type { CommandName } from "./command.ts";

/** One line per command, in `/locus help` order; also quoted by error messages. */
export const commandUsage: Readonly<Record<CommandName, string>> = {
  run: "`/locus run [model=<id>]` — work on this issue now (same as labelling it `locus:queued`), optionally on another allowed model",
  iterate:
    "`/locus iterate [model=<id>] [note]` — on a Locus pull request: address the review feedback, with an optional note and model",
  review: "`/locus review` — on a pull request: review it",
  "fix-ci": "`/locus fix-ci` — on a Locus pull request: fix its failing CI from the failed jobs' logs",
  rebase: "`/locus rebase` — on a Locus pull request: rebase it (and the PRs stacked on it) on its base",
  plan: "`/locus plan <goal>` — propose a plan of issues for the goal (it may continue on the following lines)",
  approve: "`/locus approve [2,1,3]` — under a plan: create its issues, optionally in another order",
  ask: "`/locus ask <question>` — answer a question about the code without changing anything",
  answer:
    "`/locus answer <text>` — on an issue waiting for an answer (`locus:waiting`): answer Locus's question and let it continue (any comment of yours there answers too)",
  order: "`/locus order 17 15 16` — reorder the sprint: its open issues, in the new order",
  status: "`/locus status` — summarize the repository: sprints, tasks, PRs, API budget",
  help: "`/locus help` — list these commands",
  cancel:
    "`/locus cancel` — cancel the running work and clear the status; the work is kept on `locus/wip/…` and nothing retries it until `/locus run`",
};
