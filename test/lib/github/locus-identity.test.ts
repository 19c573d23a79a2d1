import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitIdentity, isLocusAuthorEmail, noreplyEmail } from "../../../lib/git/commit-identity.ts";
import { ACTIONS_BOT, botLoginOf, isLocus, selfLoginsOf } from "../../../lib/github/locus-identity.ts";

const bot = { login: botLoginOf("acme-locus"), id: 149_000_123 };

describe("Locus's identity", () => {
  it("is the app's bot and the Actions bot, compared whole and case-insensitively", () => {
    const self = selfLoginsOf(bot);
    expect(self).toEqual(["acme-locus[bot]", ACTIONS_BOT]);
    expect(isLocus(self, "Acme-Locus[bot]")).toBe(true);
    expect(isLocus(self, "github-actions[bot]")).toBe(true);
    // A person who registered the slug as a login is not the app's bot.
    expect(isLocus(self, "acme-locus")).toBe(false);
    expect(isLocus(self, "locus[bot]")).toBe(false);
    expect(isLocus([], "acme-locus[bot]")).toBe(false);
    expect(selfLoginsOf({ login: ACTIONS_BOT })).toEqual([ACTIONS_BOT]);
  });

  it("commits as the bot with its noreply address; config changes only the author", () => {
    expect(noreplyEmail(bot)).toBe("149000123+acme-locus[bot]@users.noreply.github.com");
    const bare = commitIdentity(bot, {});
    expect(bare).toEqual({
      name: "acme-locus[bot]",
      email: "149000123+acme-locus[bot]@users.noreply.github.com",
      committer: { name: "acme-locus[bot]", email: "149000123+acme-locus[bot]@users.noreply.github.com" },
    });
    const shown = commitIdentity(bot, { name: "Release Team", email: "team@example.com" });
    expect([shown.name, shown.email]).toEqual(["Release Team", "team@example.com"]);
    expect(shown.committer).toEqual(bare.committer);
  });

  it("recognises its commits' author email, whatever the bot's id", () => {
    const self = selfLoginsOf(bot);
    expect(isLocusAuthorEmail(self, {}, "149000123+acme-locus[bot]@users.noreply.github.com")).toBe(true);
    expect(isLocusAuthorEmail(self, {}, "41898282+github-actions[bot]@users.noreply.github.com")).toBe(true);
    expect(isLocusAuthorEmail(self, {}, "x+acme-locus[bot]@users.noreply.github.com")).toBe(false);
    expect(isLocusAuthorEmail(self, {}, "alice@example.com")).toBe(false);
    expect(isLocusAuthorEmail(self, { email: "team@example.com" }, "Team@example.com")).toBe(true);
  });
});

/** Every operator's app has its own slug: no product code may assume Locus's bot is `locus[bot]`. */
describe("product code", () => {
  async function sources(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => join(entry.parentPath, entry.name));
  }

  it("never names the bot locus[bot]", async () => {
    const files = (await Promise.all(["lib", "app", "action"].map(sources))).flat();
    expect(files.length).toBeGreaterThan(50);
    const naming: string[] = [];
    for (const file of files) if ((await readFile(file, "utf8")).includes("locus[bot]")) naming.push(file);
    expect(naming).toEqual([]);
  });
});
