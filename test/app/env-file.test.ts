/** `.env` as Probot's setup flow writes it, read under what the environment already sets. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnvFile } from "../../app/env-file.ts";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "locus-env-file-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("loadEnvFile", () => {
  it("takes the file's values, a quoted multi-line key included, and says which", async () => {
    const path = join(dir, "probot.env");
    // Probot's updateEnv: one KEY=value a line, the key's newlines escaped inside quotes.
    await writeFile(
      path,
      'APP_ID=7\nPRIVATE_KEY="-----BEGIN KEY-----\\nabc\\n-----END KEY-----"\nWEBHOOK_SECRET=s3cr3t',
    );
    const env: Record<string, string | undefined> = {};
    expect(loadEnvFile(path, env)).toEqual(["APP_ID", "PRIVATE_KEY", "WEBHOOK_SECRET"]);
    expect(env).toEqual({
      APP_ID: "7",
      PRIVATE_KEY: "-----BEGIN KEY-----\nabc\n-----END KEY-----",
      WEBHOOK_SECRET: "s3cr3t",
    });
  });

  it("leaves what the environment sets", async () => {
    const path = join(dir, "override.env");
    await writeFile(path, "WEBHOOK_SECRET=development\nAPP_ID=7\n");
    const env: Record<string, string | undefined> = { WEBHOOK_SECRET: "from-the-environment" };
    expect(loadEnvFile(path, env)).toEqual(["APP_ID"]);
    expect(env["WEBHOOK_SECRET"]).toBe("from-the-environment");
  });

  it("reads nothing when there is no file", () => {
    const env: Record<string, string | undefined> = {};
    expect(loadEnvFile(join(dir, "missing.env"), env)).toEqual([]);
    expect(env).toEqual({});
  });
});
