/**
 * A signed `issues` delivery of 16 KB, built from GitHub's own example payload and
 * pointed at the simulator's repository. The body (and so its signature) is computed once; a
 * delivery differs from the next only by its `X-GitHub-Delivery` id, as on GitHub.
 */
import { createHmac } from "node:crypto";
import { createRequire } from "node:module";
import { OWNER, REPO } from "./shared.ts";

const TARGET_BYTES = 16 * 1024;

interface Example {
  readonly name: string;
  readonly examples: readonly ({ action?: string } & Record<string, unknown>)[];
}

export interface Delivery {
  readonly body: string;
  readonly headers: Record<string, string>;
}

/** `action` "labeled" is work for Locus when the label is `locus:queued`; "opened" it ignores. */
export function issueDelivery(options: {
  secret: string;
  installationId: number;
  issue: number;
  label: string;
  action: "labeled" | "opened";
}): Delivery {
  const examples = createRequire(import.meta.url)(
    "@octokit/webhooks-examples/api.github.com/index.json",
  ) as Example[];
  const example = examples.find((g) => g.name === "issues")?.examples.find((e) => e.action === "labeled");
  if (!example) throw new Error("no issues.labeled example in @octokit/webhooks-examples");
  const payload = structuredClone(example) as Record<string, unknown> & {
    issue: Record<string, unknown>;
    label: Record<string, unknown>;
    repository: Record<string, unknown>;
    sender: Record<string, unknown>;
  };
  payload["action"] = options.action;
  payload.issue = {
    ...payload.issue,
    number: options.issue,
    labels: [{ name: options.label }],
    milestone: null,
  };
  payload.label = { ...payload.label, name: options.label };
  payload.repository = {
    ...payload.repository,
    name: REPO,
    full_name: `${OWNER}/${REPO}`,
    default_branch: "main",
    owner: { login: OWNER, id: 1, type: "User" },
  };
  payload.sender = { ...payload.sender, login: "alice", type: "User" };
  payload["installation"] = { id: options.installationId };
  // Pad the issue body (where real payloads carry their bulk) up to the target size.
  const base = JSON.stringify(payload).length;
  payload.issue["body"] = "x".repeat(Math.max(0, TARGET_BYTES - base - 2));
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-hub-signature-256": `sha256=${createHmac("sha256", options.secret).update(body).digest("hex")}`,
      "user-agent": "GitHub-Hookshot/bench",
    },
  };
}
