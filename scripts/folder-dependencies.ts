/**
 * Which concept folders of `lib/` depend on which. A folder is a concept only
 * if it can be read on its own terms: when two folders import each other, each
 * needs the other to be understood, and the tree stops being the map. So no two
 * folders may depend on each other (directly), and the task run never reaches
 * into a runtime's folder (`lib/action`, `lib/app`, `lib/triggers`): it is
 * handed small ports instead. `node scripts/folder-dependencies.ts` prints the
 * folder graph and the violations; a unit test keeps the violations at zero.
 */
import { readImportGraph, type ImportGraph } from "./import-cycles.ts";

/** Folders that belong to one runtime (the Action's or the app's) and so sit above the rest. */
export const RUNTIME_FOLDERS = ["action", "app", "triggers"] as const;

/** The concept folder a `lib/` file belongs to: its first directory, or undefined for `lib/x.ts`. */
export function folderOf(file: string): string | undefined {
  const parts = file.split("/");
  return parts[0] === "lib" && parts.length > 2 ? parts[1] : undefined;
}

/** Folder → the other folders its files import. */
export function folderGraph(graph: ImportGraph): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!from) continue;
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) {
      const to = folderOf(target);
      if (to && to !== from) edges.add(to);
    }
  }
  return folders;
}

/** Each pair of folders that import each other, once, with one file import each way as evidence. */
export function twoWayDependencies(graph: ImportGraph): string[] {
  const folders = folderGraph(graph);
  const found: string[] = [];
  for (const [a, edges] of [...folders].sort(([x], [y]) => x.localeCompare(y))) {
    for (const b of [...edges].sort()) {
      if (a < b && folders.get(b)?.has(a)) {
        found.push(`${a} ↔ ${b}: ${evidence(graph, a, b)} and ${evidence(graph, b, a)}`);
      }
    }
  }
  return found;
}

/** Imports from a task-run file into a runtime's folder. */
export function taskIntoRuntime(graph: ImportGraph): string[] {
  return [...graph]
    .filter(([file]) => folderOf(file) === "task")
    .flatMap(([file, targets]) =>
      targets
        .filter((t) => (RUNTIME_FOLDERS as readonly string[]).includes(folderOf(t) ?? ""))
        .map((t) => `${file} → ${t}`),
    );
}

function evidence(graph: ImportGraph, from: string, to: string): string {
  for (const [file, targets] of graph) {
    if (folderOf(file) !== from) continue;
    const target = targets.find((t) => folderOf(t) === to);
    if (target) return `${file} → ${target}`;
  }
  return "?";
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const graph = await readImportGraph();
  for (const [folder, edges] of [...folderGraph(graph)].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${folder} → ${[...edges].sort().join(", ")}`);
  }
  const violations = [...twoWayDependencies(graph), ...taskIntoRuntime(graph)];
  for (const line of violations) console.log(`✗ ${line}`);
  process.exitCode = violations.length > 0 ? 1 : 0;
}
