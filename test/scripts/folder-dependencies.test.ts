/**
 * The folder tree is the map (docs/architecture.md, "Folders"): no two concept
 * folders of lib/ import each other, and the task run never reaches into a
 * runtime's folder.
 */
import { describe, expect, it } from "vitest";
import {
  folderGraph,
  folderOf,
  taskIntoRuntime,
  twoWayDependencies,
} from "../../scripts/folder-dependencies.ts";
import { sourceImportGraph } from "../source-import-graph.ts";

describe("the folder graph", () => {
  it("has no two folders that depend on each other", async () => {
    const graph = await sourceImportGraph();
    expect(folderGraph(graph).get("task")).toContain("lifecycle");
    expect(twoWayDependencies(graph)).toEqual([]);
  });

  it("keeps the task run out of the runtimes' folders", async () => {
    const graph = await sourceImportGraph();
    expect(taskIntoRuntime(graph)).toEqual([]);
  });

  it("finds a two-way dependency and a task file reaching into a runtime", () => {
    const graph = new Map([
      ["lib/task/run-task.ts", ["lib/stack/restack.ts", "lib/action/run-mode.ts"]],
      ["lib/stack/restack.ts", ["lib/git/git-client.ts"]],
      ["lib/git/git-client.ts", ["lib/stack/rebase.ts"]],
      ["lib/stack/rebase.ts", []],
      ["lib/markers.ts", ["lib/task/run-task.ts"]],
    ]);
    expect(twoWayDependencies(graph)).toEqual([
      "git ↔ stack: lib/git/git-client.ts → lib/stack/rebase.ts and lib/stack/restack.ts → lib/git/git-client.ts",
    ]);
    expect(taskIntoRuntime(graph)).toEqual(["lib/task/run-task.ts → lib/action/run-mode.ts"]);
    expect(folderOf("lib/markers.ts")).toBeUndefined();
  });
});
