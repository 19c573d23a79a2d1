import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { releaseNotes } from "../../scripts/release-notes.ts";

const CHANGELOG = `# Changelog

## [Unreleased]

### Fixed
- Something not yet released.

## [1.1.0] - 2026-12-01

### Added
- A \`runs-on\` input.

## [1.0.0] - 2026-11-30

### Added
- Everything.

[Unreleased]: https://github.com/locus-dev/locus/compare/v1.1.0...HEAD
[1.1.0]: https://github.com/locus-dev/locus/compare/v1.0.0...v1.1.0
`;

describe("release notes from CHANGELOG.md", () => {
  it("are the version's section without its heading", () => {
    expect(releaseNotes(CHANGELOG, "1.1.0")).toBe("### Added\n- A `runs-on` input.\n");
  });

  it("leave out the link references at the end of the last section", () => {
    expect(releaseNotes(CHANGELOG, "1.0.0")).toBe("### Added\n- Everything.\n");
  });

  it("refuse a version the changelog does not describe, or that is no semantic version", () => {
    expect(() => releaseNotes(CHANGELOG, "1.2.0")).toThrow('no "## [1.2.0]" section');
    expect(() => releaseNotes(CHANGELOG, "v1")).toThrow("not a semantic version");
  });

  it("exist in the repository's changelog for package.json's version", async () => {
    const root = new URL("../../", import.meta.url);
    const { version } = JSON.parse(await readFile(new URL("package.json", root), "utf8")) as {
      version: string;
    };
    const changelog = await readFile(new URL("CHANGELOG.md", root), "utf8");
    expect(releaseNotes(changelog, version)).toMatch(/\S/);
  });
});
