/**
 * What a sandboxed agent program gets besides the sandbox's usual mounts (pure rules): the model
 * API it calls itself, and its own installed files.
 */
import { describe, expect, it } from "vitest";
import { programFiles } from "../../../lib/sandbox/program-files.ts";
import { modelHosts } from "../../../lib/agent/run-sandbox.ts";

describe("the model API an agent reaches from inside the sandbox", () => {
  it("is none for the built-in agent, whose model calls leave from Locus's own process", () => {
    expect(modelHosts("builtin", { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" })).toEqual([]);
  });

  it("is the CLI's own API, moved by its base URL", () => {
    expect(modelHosts("claude-code", {})).toEqual(["api.anthropic.com"]);
    expect(modelHosts("codex", { OPENAI_BASE_URL: "https://llm.corp.example/v1" })).toEqual([
      "llm.corp.example",
    ]);
  });

  it("is, for an ACP agent, each API whose credentials agent.acp.env hands it", () => {
    expect(modelHosts("acp", {}, ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"])).toEqual(["api.anthropic.com"]);
    expect(
      modelHosts("acp", { ANTHROPIC_BASE_URL: "http://127.0.0.1:4100" }, ["ANTHROPIC_BASE_URL"]),
    ).toEqual(["127.0.0.1:4100"]);
    expect(modelHosts("acp", {}, ["GEMINI_API_KEY", "OPENAI_API_KEY"])).toEqual([
      "api.openai.com",
      "generativelanguage.googleapis.com",
    ]);
    expect(modelHosts("acp", {}, [])).toEqual([]);
  });

  it("is, for an ACP agent not handed the base-URL variable, the API's own host: the agent calls that", () => {
    expect(
      modelHosts("acp", { ANTHROPIC_BASE_URL: "https://llm-proxy.corp.example" }, ["ANTHROPIC_API_KEY"]),
    ).toEqual(["api.anthropic.com"]);
  });
});

describe("an agent program's own files", () => {
  it("are the whole node_modules tree of an npm-installed program, where its dependencies are", () => {
    expect(
      programFiles("/home/runner/.locus-cli/lib/node_modules/@zed-industries/claude-code-acp/dist/index.js"),
    ).toEqual(["/home/runner/.locus-cli/lib/node_modules"]);
    expect(programFiles("/srv/action/node_modules/a/node_modules/b/cli.js")).toEqual([
      "/srv/action/node_modules",
    ]);
  });

  it("are the program file alone otherwise", () => {
    expect(programFiles("/opt/agents/gemini")).toEqual(["/opt/agents/gemini"]);
  });
});
