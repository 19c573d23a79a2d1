/**
 * The import graph of lib/, app/ and action/, read once per test worker and shared by the tests
 * that check it (cycles, folder dependencies, where markers are spelled): reading it parses every
 * source file, about a second of CPU each time. Test files share a worker's modules
 * (vitest.config.ts), and no test changes the sources, so one reading serves them all. Tests
 * read the graph and never change it.
 */
import { readImportGraph, type ImportGraph } from "../scripts/import-cycles.ts";

let reading: Promise<ImportGraph> | undefined;

/** Locus's own import graph, read on the first call. */
export function sourceImportGraph(): Promise<ImportGraph> {
  reading ??= readImportGraph();
  return reading;
}
