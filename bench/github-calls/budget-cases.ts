/**
 * The standalone task in the two cases that used to cost more than five
 * requests: a repository without Locus's labels (its first task creates them,
 * once; a later task finds them) and a task a person triggered, whose write
 * access the app checked when it dispatched the run, or GitHub checked when
 * they dispatched it by hand. A harness of its own, so
 * no label exists until the first task creates it.
 */
import { randomUUID } from "node:crypto";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import {
  arrangeStatus,
  PROJECT_FILES,
  startHarness,
  type ActionRun,
  type Harness,
} from "../../test/action/harness.ts";
import { counted, type Tally } from "./tally.ts";

export interface BudgetCases {
  readonly unlabelledFirst: Tally;
  readonly unlabelledLater: Tally;
  readonly personTriggered: Tally;
  readonly handDispatched: Tally;
}

async function task(
  h: Harness,
  issue: number,
  delivery: string,
  what: string,
  env: Record<string, string> = {},
): Promise<Tally> {
  h.fake.setScript([
    reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
    reply(call("finish", { summary: "Greeting now says Hi." })),
  ]);
  let run: ActionRun | undefined;
  const tally = await counted(
    h.sim.requestLog,
    async () => (run = await h.run({ mode: "issue", issue: String(issue), delivery }, env)),
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
    // Alice dispatches the workflow by hand: GitHub let her only because she has write access.
    const byHand = await h.api.createIssue({ title: "Greet briefly" });
    await h.as("alice").setLabels(byHand.number, ["locus:queued"]);
    const handDispatched = await task(h, byHand.number, randomUUID(), "task dispatched by hand", {
      GITHUB_ACTOR: "alice",
      GITHUB_EVENT_NAME: "workflow_dispatch",
    });
    return { unlabelledFirst, unlabelledLater, personTriggered, handDispatched };
  } finally {
    await h.close();
  }
}
