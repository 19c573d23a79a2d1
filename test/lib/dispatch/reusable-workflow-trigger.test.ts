/**
 * The reusable workflow's own shape: it is only called (a trigger of its own
 * would run without the caller's secrets and app URL), and its `runs-on`
 * input, evaluated by GitHub's own expression evaluator, gives a job a single
 * label or a list of labels.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Evaluator, Lexer, Parser, data } from "@actions/expressions";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

interface ReusableWorkflow {
  on: Record<string, { inputs?: Record<string, { default?: unknown }> }>;
  jobs: Record<string, { "runs-on": string }>;
}

const reusable = parse(
  readFileSync(fileURLToPath(new URL("../../../.github/workflows/locus.yml", import.meta.url)), "utf8"),
) as ReusableWorkflow;

/** The job's `runs-on` as GitHub evaluates it with this `runs-on` input. */
function runsOn(input: string): unknown {
  const template = Object.values(reusable.jobs)[0]?.["runs-on"] ?? "";
  const expression = /^\$\{\{(.*)\}\}$/s.exec(template)?.[1] ?? "";
  const { tokens } = new Lexer(expression).lex();
  const tree = new Parser(tokens, ["inputs"], []).parse();
  const inputs = new data.Dictionary({ key: "runs-on", value: new data.StringData(input) });
  const result = new Evaluator(tree, new data.Dictionary({ key: "inputs", value: inputs })).evaluate();
  return JSON.parse(JSON.stringify(result, data.replacer)) as unknown;
}

describe("the reusable workflow", () => {
  it("is only called by the repository's own workflow", () => {
    expect(Object.keys(reusable.on)).toEqual(["workflow_call"]);
  });

  it("runs on ubuntu-latest unless told otherwise", () => {
    const declared = reusable.on["workflow_call"]?.inputs?.["runs-on"]?.default;
    expect(declared).toBe("ubuntu-latest");
    expect(runsOn(String(declared))).toBe("ubuntu-latest");
  });

  it("takes a runner label as it is and a JSON list of labels as a list", () => {
    expect(runsOn("ghes-linux")).toBe("ghes-linux");
    expect(runsOn('["self-hosted", "linux", "x64"]')).toEqual(["self-hosted", "linux", "x64"]);
  });
});
