/**
 * The release notes of one version: its section of CHANGELOG.md (Keep a
 * Changelog: `## [1.2.3] - 2026-01-31` up to the next `## [`), without the
 * heading, since the release already carries the version as its title. Run by
 * the release workflow as `node scripts/release-notes.ts 1.2.3`; it fails when
 * the changelog has no section for the version, so nothing ships undescribed.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export function releaseNotes(changelog: string, version: string): string {
  if (!SEMVER.test(version)) throw new Error(`"${version}" is not a semantic version (1.2.3, 1.2.3-rc.1)`);
  const lines = changelog.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`## [${version}]`));
  if (start < 0) throw new Error(`CHANGELOG.md has no "## [${version}]" section: describe the release first`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith("## ["));
  const notes = lines
    .slice(start + 1, end < 0 ? undefined : end)
    .filter((line) => !/^\[[^\]]+\]: /.test(line))
    .join("\n")
    .trim();
  if (!notes) throw new Error(`CHANGELOG.md's "## [${version}]" section is empty`);
  return `${notes}\n`;
}

async function main(): Promise<void> {
  const version = process.argv[2]?.replace(/^v/, "") ?? "";
  const changelog = await readFile(fileURLToPath(new URL("../CHANGELOG.md", import.meta.url)), "utf8");
  process.stdout.write(releaseNotes(changelog, version));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
