import { describe, expect, it } from "vitest";
import { scrubEnvironment } from "../../../lib/sandbox/environment.ts";

describe("scrubEnvironment", () => {
  it("removes tokens, keys and Actions/Anthropic/input variables and keeps the rest", () => {
    const scrubbed = scrubEnvironment({
      PATH: "/usr/bin",
      HOME: "/home/runner",
      CI: "true",
      GITHUB_REPOSITORY: "o/r",
      GITHUB_TOKEN: "x",
      GH_TOKEN: "x",
      NODE_AUTH_TOKEN: "x",
      npm_config__authToken: "x",
      ACTIONS_RUNTIME_URL: "x",
      INPUT_COMMAND: "x",
      ANTHROPIC_BASE_URL: "x",
      AWS_SECRET_ACCESS_KEY: "x",
      SSH_AUTH_SOCK: "x",
      GIT_ASKPASS: "x",
      GIT_CONFIG_PARAMETERS: "x",
      GIT_CONFIG_COUNT: "1",
      PGPASSWORD: "x",
      GOOGLE_APPLICATION_CREDENTIALS: "x",
      SIGNING_PRIVATE: "x",
      UNDEFINED: undefined,
    });
    expect(scrubbed).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/runner",
      CI: "true",
      GITHUB_REPOSITORY: "o/r",
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_NOSYSTEM: "1",
    });
  });

  it("does not modify its input", () => {
    const env = { GITHUB_TOKEN: "x" };
    scrubEnvironment(env);
    expect(env).toEqual({ GITHUB_TOKEN: "x" });
  });
});
