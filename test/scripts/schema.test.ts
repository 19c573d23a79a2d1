import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { SCHEMA_PATH, SCHEMA_URL, renderConfigSchema } from "../../scripts/schema.ts";

describe("schema/locus.schema.json", () => {
  it("is what the zod config schema generates today (run `npm run schema` after changing it)", async () => {
    expect(await readFile(SCHEMA_PATH, "utf8")).toBe(await renderConfigSchema());
  });

  it("is the schema the README's yaml-language-server line points at", async () => {
    const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
    expect(readme).toContain(`# yaml-language-server: $schema=${SCHEMA_URL}`);
    const schema = JSON.parse(await readFile(SCHEMA_PATH, "utf8")) as { $id?: string };
    expect(schema.$id).toBe(SCHEMA_URL);
  });
});

describe("the generated schema in an editor's validator", () => {
  it("accepts a file as users write it and points at a value out of range", async () => {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const validate = new Ajv2020({ strict: false }).compile(
      JSON.parse(await readFile(SCHEMA_PATH, "utf8")) as object,
    );
    expect(validate({ version: 3, agent: { maxTurns: 20 }, shell: { allow: ["npm *"] } })).toBe(true);
    expect(validate({ agent: { maxTurns: 0 } })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe("/agent/maxTurns");
  });
});
