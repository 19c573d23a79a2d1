/**
 * The standalone task in the two cases that used to cost more than five
 * requests: a repository without Locus's labels (its first task creates them,
 * once; a later task finds them) and a task a person triggered, whose write
 * access the app checked when it dispatched the run. A harness of its own, so
 * no label exists until the first task creates it.
 */
import { randomUUID } from "node:crypto";
import { hiddenMarker } from "../../lib/markers.ts";
import { renderStatusComment, type StatusState } from "../../lib/status/status-comment.ts";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { PROJECT_FILES, startHarness, type ActionRun, type Harness } from "../../test/action/harness.ts";
import { counted, type Tally } from "./tally.ts";

export interface BudgetCases {
  readonly unlabelledFirst: Tally;
  readonly unlabelledLater: Tally;
  readonly personTriggered: Tally;
}

async function task(h: Harness, issue: number, delivery: string, what: string): Promise<Tally> {
  h.fake.setScript([
    reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
    reply(call("finish", { summary: "Greeting now says Hi." })),
  ]);
  let run: ActionRun | undefined;
  const tally = await counted(
    h.sim.requestLog,
    async () => (run = await h.run({ mode: "issue", issue: String(issue), delivery })),
  );
  if (run?.code !== 0 || run.outputs["status"] !== "succeeded")
    throw new Error(`${what}: the Action ended ${run?.code} ${run?.outputs["status"] ?? ""}`);
  return tally;
}

export async function budgetCases(): Promise<BudgetCases> {
  const h = await startHarness(PROJECT_FILES);
  try {
    h.repo.collaborator("alice", "write");
    const first = await h.api.createIssue({ title: "Greet politely", labels: ["locus:queued"] });
    const unlabelledFirst = await task(h, first.number, randomUUID(), "first task without labels");
    const later = await h.api.createIssue({ title: "Greet kindly", labels: ["locus:queued"] });
    const unlabelledLater = await task(h, later.number, randomUUID(), "later task");
    // Alice (write access) labels the issue; the app checked her and recorded it for its dispatch.
    const asked = await h.api.createIssue({ title: "Greet warmly" });
    await h.as("alice").setLabels(asked.number, ["locus:queued"]);
    const delivery = randomUUID();
    await arrangeStatus(h, asked.number, {
      deliveries: [delivery],
      attempts: 0,
      requester: "alice",
      requesterDelivery: delivery,
    });
    const personTriggered = await task(h, asked.number, delivery, "task a person triggered");
    return { unlabelledFirst, unlabelledLater, personTriggered };
  } finally {
    await h.close();
  }
}

/** The status comment as the app leaves it when it dispatches (arranged directly, as the app would write it). */
async function arrangeStatus(h: Harness, issue: number, state: StatusState): Promise<void> {
  await h.api.createComment(
    issue,
    `${hiddenMarker("status")}\n${renderStatusComment({ headline: "Queued." }, state)}`,
  );
}
