/**
 * The import graph of Locus's own code and the cycles in it. A cycle (even one
 * made only of `import type`) means two concepts cannot be read, tested or
 * moved apart: a rule's types end up depending on an adapter. Every static
 * import, `export … from`, type-only import, `import("…")` type and dynamic
 * `import()` counts. `node scripts/import-cycles.ts` lists the cycles (and
 * exits 1 when there are any); a unit test keeps the list empty.
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The folders whose files must not import each other in a circle. */
export const SOURCE_DIRS = ["lib", "app", "action"];

/** File (relative to the root) → the files it imports, within the graph. */
export type ImportGraph = Map<string, string[]>;

/** Every relative module specifier a source text names, in order. */
export function importSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith("."));
}

async function sourceFiles(root: string, dirs: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const dir of dirs) {
    const entries = await readdir(join(root, dir), { withFileTypes: true, recursive: true });
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
        files.push(relative(root, join(entry.parentPath, entry.name)));
      }
    }
  }
  return files.sort();
}

/** Reads the files under `dirs` and links each to the files of the graph it imports. */
export async function readImportGraph(root = ROOT, dirs = SOURCE_DIRS): Promise<ImportGraph> {
  const files = await sourceFiles(root, dirs);
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const text = await readFile(join(root, file), "utf8");
    const targets = importSpecifiers(file, text)
      .map((specifier) => relative(root, resolve(root, dirname(file), specifier)))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components with more than one file, or one file importing itself (Tarjan). */
function tangledComponents(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) components.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return components;
}

/** A shortest path from `start` back to itself, staying inside `members`. */
function shortestLoop(graph: ImportGraph, start: string, members: Set<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start];
}

/** One line per tangle: its size and one shortest loop through its first file, `a → b → a`. */
export function findCycles(graph: ImportGraph): string[] {
  return tangledComponents(graph).map((component) => {
    const loop = shortestLoop(graph, component[0]!, new Set(component));
    return `${component.length} files tangled; e.g. ${loop.join(" → ")}`;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const cycles = findCycles(await readImportGraph());
  for (const cycle of cycles) console.log(cycle);
  process.exitCode = cycles.length > 0 ? 1 : 0;
}
