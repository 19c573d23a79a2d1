/**
 * The functions of lib/ that take a whole context or the whole gateway: a
 * parameter typed `GitHubGateway`, `ActionContext` or `AppContext` itself
 * (a `Pick` of one, or a role port, is what a function should take instead:
 * docs/architecture.md, "Ports"). `node scripts/whole-context-params.ts` lists
 * them; a unit test keeps the list from growing.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import ts from "typescript";
import { ROOT } from "./import-cycles.ts";

/** The types that carry all of GitHub: a function should name the few members it uses. */
export const WHOLE_TYPES = ["GitHubGateway", "ActionContext", "AppContext"];

/**
 * Where a whole context is the point: a runtime's entry builds it and hands it
 * to the mode or trigger it picked, which takes it whole by design.
 */
export const ENTRY_POINTS = ["lib/action/run-mode.ts"];

/** `file:line name(param: Type)` for each parameter of a function in `text` typed as one of WHOLE_TYPES. */
export function wholeContextParams(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isParameter(node) && node.type && ts.isTypeReferenceNode(node.type)) {
      const typeName = node.type.typeName.getText(source);
      if (WHOLE_TYPES.includes(typeName)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(
          `${fileName}:${line} ${functionName(node.parent, source)}(${node.name.getText(source)}: ${typeName})`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function functionName(fn: ts.Node, source: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name) return fn.name.getText(source);
  const holder = fn.parent;
  if (holder && (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder))) {
    return holder.name.getText(source);
  }
  return "(anonymous)";
}

/** Every whole-context parameter in lib/, outside the entry points. */
export async function findWholeContextParams(): Promise<string[]> {
  const entries = await readdir(join(ROOT, "lib"), { withFileTypes: true, recursive: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((file) => !ENTRY_POINTS.includes(file))
    .sort();
  const found: string[] = [];
  for (const file of files) found.push(...wholeContextParams(file, await readFile(join(ROOT, file), "utf8")));
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = await findWholeContextParams();
  for (const line of found) console.log(line);
  console.log(`${found.length} parameters take a whole context or the whole gateway`);
}
