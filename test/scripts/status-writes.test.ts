/**
 * No status label and no status comment is written outside the lifecycle's
 * applier (lib/lifecycle/apply-effects.ts and the status writer it drives):
 * every status change is a lifecycle event (docs/lifecycle.md). The gateway
 * itself (lib/github/) implements the writes and is not a caller.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/import-cycles.ts";

const APPLIER = ["lib/lifecycle/apply-effects.ts", "lib/lifecycle/status-writer.ts"];

/**
 * Label writes that are not status writes: each sets the labels it read with one non-status label
 * changed (an `order:N`, the managed marker on a PR), the status among them as it was.
 */
const NOT_STATUS_LABEL_WRITES: Readonly<Record<string, string>> = {
  "lib/triggers/assign-order.ts": "gives an issue its order:N",
  "lib/triggers/remove-order.ts": "takes an issue's order:N off",
  "lib/triggers/order-command.ts": "moves order:N labels",
  "lib/task/deliver-pull-request.ts": "marks a PR agent:managed",
};

interface Rule {
  readonly what: string;
  readonly pattern: RegExp;
  readonly allowed: (file: string) => boolean;
}

const RULES: readonly Rule[] = [
  {
    what: "a moment write (labels and the status comment)",
    pattern: /\.writeMoment\s*\(/,
    allowed: (file) => APPLIER.includes(file),
  },
  {
    what: "a status comment writer",
    pattern: /\bcreateStatusWriter\s*\(/,
    allowed: (file) => APPLIER.includes(file),
  },
  {
    what: "a status comment body",
    pattern:
      /\brenderStatusComment\s*\(|(upsertComment|createComment|updateComment)\s*\([^)]*(STATUS_MARKER|hiddenMarker\(\s*"status"\s*\))/,
    allowed: (file) => APPLIER.includes(file) || file === "lib/status/status-comment.ts",
  },
  {
    what: "a label write",
    pattern: /\.(setLabels|removeLabel|addLabels)\s*\(/,
    allowed: (file) => APPLIER.includes(file) || file in NOT_STATUS_LABEL_WRITES,
  },
  {
    what: "a label write through Octokit",
    pattern: /issues\.(setLabels|addLabels|removeLabel|removeAllLabels)\b/,
    allowed: () => false,
  },
];

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name).slice(ROOT.length).replace(/^\/+/, ""));
}

/** The lines of `text` a rule forbids in `file`, comments left out. */
function violations(file: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, index) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    const broken = RULES.find((rule) => rule.pattern.test(line) && !rule.allowed(file));
    if (broken) found.push(`${file}:${index + 1}: ${broken.what}`);
  });
  return found;
}

describe("status writes", () => {
  it("go through the lifecycle's applier only, in lib/ and app/", async () => {
    const files = [...(await sourceFiles("lib")), ...(await sourceFiles("app"))].filter(
      (file) => !file.startsWith("lib/github/"),
    );
    expect(files).toContain("lib/lifecycle/apply-effects.ts");
    const found: string[] = [];
    for (const file of files) found.push(...violations(file, await readFile(join(ROOT, file), "utf8")));
    expect(found).toEqual([]);
  });

  it("keeps its allowed label writes real: each listed file still writes labels", async () => {
    for (const file of Object.keys(NOT_STATUS_LABEL_WRITES))
      expect(await readFile(join(ROOT, file), "utf8")).toMatch(/\.setLabels\s*\(/);
  });

  it("catches each kind of write outside the applier", () => {
    const file = "lib/triggers/example.ts";
    expect(violations(file, "await ctx.gateway.setLabels(1, [statusLabel('queued')]);")).toHaveLength(1);
    expect(violations(file, "await gateway.removeLabel(issue.number, claimed)")).toHaveLength(1);
    expect(violations(file, "await ctx.gateway.writeMoment(writes);")).toHaveLength(1);
    expect(violations(file, "const w = createStatusWriter(gateway, issue, record);")).toHaveLength(1);
    expect(violations(file, "await gateway.upsertComment(issue, STATUS_MARKER, body);")).toHaveLength(1);
    expect(violations(file, "const body = renderStatusComment(view, state);")).toHaveLength(1);
    expect(violations(file, "await octokit.rest.issues.addLabels({ labels })")).toHaveLength(1);
    expect(violations(file, " * a comment naming setLabels( is no write")).toEqual([]);
    expect(violations("lib/lifecycle/apply-effects.ts", "await gateway.writeMoment(writes);")).toEqual([]);
  });
});
