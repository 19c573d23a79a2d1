import { describe, expect, it } from "vitest";
import { checkStartup } from "../../app/startup-check.ts";

describe("start-up check", () => {
  it("lets an unconfigured app open Probot's setup flow", () => {
    expect(checkStartup({})).toBeUndefined();
  });

  it("refuses a configured app without a webhook secret, or with Probot's placeholder", () => {
    expect(checkStartup({ APP_ID: "1", PRIVATE_KEY: "k" })).toContain(
      "will not start without WEBHOOK_SECRET",
    );
    expect(checkStartup({ APP_ID: "1", PRIVATE_KEY_PATH: "k.pem", WEBHOOK_SECRET: "development" })).toContain(
      "too weak",
    );
    expect(checkStartup({ APP_ID: "1", PRIVATE_KEY: "k", WEBHOOK_SECRET: "short" })).toContain("too weak");
  });

  it("starts with a real secret", () => {
    expect(
      checkStartup({ APP_ID: "1", PRIVATE_KEY: "k", WEBHOOK_SECRET: "9f86d081884c7d659a2feaa0c55ad015" }),
    ).toBeUndefined();
  });
});
