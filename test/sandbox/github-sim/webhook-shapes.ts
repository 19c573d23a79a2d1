import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { WebhookDelivery } from "../../../sandbox/github-sim/index.ts";

// Compares simulated deliveries with the community's recorded payloads (@octokit/webhooks-examples):
// every key a real payload of the same event and action carries, at the top level and one level down,
// must be present. Keys that only exist for organisations, enterprises or optional features are skipped.

interface ExampleGroup {
  name: string;
  examples: Record<string, unknown>[];
}

const optional = new Set([
  "organization",
  "enterprise",
  "changes",
  "requested_reviewer",
  "requested_team",
  "assignee",
  "label",
  "milestone",
]);

let groups: ExampleGroup[] | undefined;

function examples(): ExampleGroup[] {
  groups ??= JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve("@octokit/webhooks-examples"), "utf8"),
  ) as ExampleGroup[];
  return groups;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function missingWebhookKeys(delivery: WebhookDelivery): string[] {
  const group = examples().find((candidate) => candidate.name === delivery.event);
  // Some actions (workflow_run.in_progress) have no recording; any example of the event shows the envelope.
  const example =
    group?.examples.find((candidate) => candidate.action === delivery.action) ?? group?.examples[0];
  if (!example) return [`${delivery.event}.${delivery.action ?? ""}: no recorded example to compare with`];
  const missing: string[] = [];
  for (const [key, value] of Object.entries(example)) {
    if (optional.has(key)) continue;
    const ours = delivery.payload[key];
    if (ours === undefined) {
      missing.push(`${delivery.event}.${delivery.action ?? ""}: ${key}`);
      continue;
    }
    if (!isObject(value) || !isObject(ours) || key === "installation") continue;
    for (const nested of Object.keys(value)) {
      if (!(nested in ours)) missing.push(`${delivery.event}.${delivery.action ?? ""}: ${key}.${nested}`);
    }
  }
  return missing;
}
