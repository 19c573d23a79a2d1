import { describe, expect, it } from "vitest";
import { lintWorkflows, workflowBlocks } from "../../scripts/lint-workflows.ts";

const workflow = (expression: string) => `name: t
on:
  workflow_dispatch:
    inputs:
      mode: { required: true, type: string }
jobs:
  run:
    runs-on: ubuntu-latest
    steps:
      - run: echo "${expression}"
`;

describe("workflow lint", () => {
  it("passes a valid workflow and reports an undefined input with its position", async () => {
    expect(await lintWorkflows([{ path: "ok.yml", source: workflow("${{ inputs.mode }}") }])).toEqual([]);
    const problems = await lintWorkflows([{ path: "bad.yml", source: workflow("${{ inputs.mood }}") }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^bad\.yml:10:\d+: property "mood" is not defined/);
  });

  it("finds the whole workflows among a markdown file's YAML blocks", () => {
    const markdown = `# Title\n\`\`\`yaml\na: 1\n\`\`\`\n\n\`\`\`yml\n${workflow("x")}\`\`\`\n`;
    const blocks = workflowBlocks(markdown, "README.md");
    expect(blocks.map((block) => block.path)).toEqual(["README.md (workflow at line 7)"]);
    expect(blocks[0]?.source).toBe(workflow("x"));
  });
});
