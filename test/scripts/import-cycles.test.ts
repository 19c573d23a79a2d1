/**
 * No file of lib/, app/ or action/ imports itself back through others, type-only
 * imports included (docs/architecture.md, "Layering and cycles").
 */
import { describe, expect, it } from "vitest";
import { findCycles, importSpecifiers } from "../../scripts/import-cycles.ts";
import { sourceImportGraph } from "../source-import-graph.ts";

describe("the import graph", () => {
  it("has no cycle in lib/, app/ or action/", async () => {
    const graph = await sourceImportGraph();
    expect(graph.size).toBeGreaterThan(250);
    expect(graph.get("lib/agent/create-runner.ts")).toContain("lib/agent/builtin-runner.ts");
    expect(findCycles(graph)).toEqual([]);
  });

  it("keeps lib/ free of the entry points", async () => {
    const graph = await sourceImportGraph();
    const upward = [...graph]
      .filter(([file]) => file.startsWith("lib/"))
      .flatMap(([file, targets]) =>
        targets.filter((t) => !t.startsWith("lib/")).map((t) => `${file} → ${t}`),
      );
    expect(upward).toEqual([]);
  });

  it("counts type-only imports, re-exports, import types and dynamic imports", () => {
    const text = [
      'import type { A } from "./a.ts";',
      'import { b, type B } from "../b.ts";',
      'export type * from "./c.ts";',
      'export { d } from "./d.ts";',
      'type E = typeof import("./e.ts");',
      'const f = await import("./f.ts");',
      'import { z } from "zod";',
      'import "./g.ts";',
    ].join("\n");
    expect(importSpecifiers("x.ts", text)).toEqual([
      "./a.ts",
      "../b.ts",
      "./c.ts",
      "./d.ts",
      "./e.ts",
      "./f.ts",
      "./g.ts",
    ]);
  });

  it("reports each tangle once with a shortest loop through it", () => {
    const graph = new Map([
      ["types.ts", ["reads.ts"]],
      ["reads.ts", ["transport.ts"]],
      ["transport.ts", ["types.ts", "errors.ts"]],
      ["errors.ts", []],
      ["self.ts", ["self.ts"]],
      ["leaf.ts", ["types.ts"]],
    ]);
    expect(findCycles(graph)).toEqual([
      "3 files tangled; e.g. reads.ts → transport.ts → types.ts → reads.ts",
      "1 files tangled; e.g. self.ts → self.ts",
    ]);
  });
});
