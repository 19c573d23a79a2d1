import { describe, expect, it } from "vitest";
import { defaultSetupCommands, planSetup } from "../../../lib/setup/setup-plan.ts";

describe("defaultSetupCommands", () => {
  it.each([
    [["package.json", "package-lock.json"], ["npm ci"]],
    [["package.json", "pnpm-lock.yaml"], ["pnpm install --frozen-lockfile"]],
    [["package.json", "yarn.lock"], ["yarn install --immutable"]],
    [["requirements.txt"], ["pip install -r requirements.txt"]],
    [["pyproject.toml", "uv.lock"], ["uv sync --locked"]],
    [["go.mod", "go.sum"], ["go mod download"]],
    [["Cargo.toml", "Cargo.lock"], ["cargo fetch --locked"]],
  ])("installs from the lockfile in %j", (files, commands) => {
    expect(defaultSetupCommands(files)).toEqual(commands);
  });

  it("runs nothing without a lockfile: a bare package.json would let the install rewrite versions", () => {
    expect(defaultSetupCommands(["package.json", "README.md"])).toEqual([]);
    expect(defaultSetupCommands([])).toEqual([]);
  });

  it("picks one install when two lockfiles are present", () => {
    expect(defaultSetupCommands(["yarn.lock", "package-lock.json"])).toEqual(["npm ci"]);
  });
});

describe("planSetup", () => {
  const npmRepo = ["package.json", "package-lock.json"];

  it("defaults to the lockfile's install with the ecosystem's registries for setup only", () => {
    expect(planSetup({ network: {} }, npmRepo)).toEqual({
      source: "default",
      commands: ["npm ci"],
      networkAllow: ["registry.npmjs.org", "registry.yarnpkg.com"],
    });
  });

  it("runs the configured commands with the configured hosts", () => {
    expect(
      planSetup(
        { commands: ["make deps", "npm run codegen"], network: { allow: ["npm.example.com"] } },
        npmRepo,
      ),
    ).toEqual({
      source: "configured",
      commands: ["make deps", "npm run codegen"],
      networkAllow: ["npm.example.com"],
    });
  });

  it("turns setup off with an empty list, even where a lockfile exists", () => {
    expect(planSetup({ commands: [], network: {} }, npmRepo)).toMatchObject({ source: "none", commands: [] });
  });

  it("runs nothing in a repository without a known lockfile", () => {
    expect(planSetup({ network: {} }, ["README.md"])).toEqual({
      source: "none",
      commands: [],
      networkAllow: [],
    });
  });
});
