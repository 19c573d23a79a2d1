/**
 * The setup cache as the reusable workflow keeps it and the Action takes it: the workflow keys the
 * cache on exactly the lockfiles the code names and hands the Action the directory it restored,
 * and a directory inside the workspace (where the agent's worktree could reach it) is never used.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  SETUP_CACHE_LOCKFILES,
  setupCacheEnvironment,
  usableSetupCache,
} from "../../../lib/setup/setup-cache.ts";

interface Step {
  name?: string;
  uses?: string;
  with?: Record<string, string>;
}

const workflow = parse(
  readFileSync(fileURLToPath(new URL("../../../.github/workflows/locus.yml", import.meta.url)), "utf8"),
) as { jobs: Record<string, { steps: Step[] }> };
const steps = Object.values(workflow.jobs)[0]?.steps ?? [];

describe("the reusable workflow's setup cache", () => {
  const cache = steps.find((step) => step.name === "Restore the setup cache");
  const locus = steps.find((step) => step.name === "Run Locus");

  it("is keyed on exactly the lockfiles whose installs it caches", () => {
    const hashed = /hashFiles\(([^)]*)\)/.exec(cache?.with?.["key"] ?? "")?.[1] ?? "";
    const files = [...hashed.matchAll(/'([^']+)'/g)].map((match) => match[1]);
    expect(cache?.uses).toMatch(/^actions\/cache@[0-9a-f]{40}$/);
    expect(files).toEqual(SETUP_CACHE_LOCKFILES);
  });

  it("hands the Action the directory it restores, before the Action runs", () => {
    expect(cache?.with?.["path"]).toBe("${{ runner.temp }}/locus-setup-cache");
    expect(locus?.with?.["setup-cache"]).toBe(cache?.with?.["path"]);
    expect(steps.indexOf(cache ?? {})).toBeLessThan(steps.indexOf(locus ?? {}));
  });
});

describe("usableSetupCache", () => {
  it("takes a directory outside the workspace", () => {
    expect(usableSetupCache("/runner/_temp/locus-setup-cache", "/runner/work/repo")).toEqual({
      dir: "/runner/_temp/locus-setup-cache",
    });
    expect(usableSetupCache(undefined, "/runner/work/repo")).toEqual({});
  });

  it("refuses the workspace itself or anything inside it, and says so", () => {
    for (const dir of ["/runner/work/repo", "/runner/work/repo/.cache", "/runner/work/x/../repo/c"]) {
      const usable = usableSetupCache(dir, "/runner/work/repo");
      expect(usable.dir).toBeUndefined();
      expect(usable.refused).toContain("inside the workspace");
    }
  });

  it("points npm at its own folder of the cache", () => {
    expect(setupCacheEnvironment("/c")).toEqual({ npm_config_cache: "/c/npm" });
  });
});
