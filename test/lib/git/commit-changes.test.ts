/**
 * What `createCommitOnBranch` can say of a commit (pure): git's raw listing read into changes, the
 * modes the API cannot write refused by name, changes grouped under a request cap, and the
 * message split into headline and body with a split commit's part named.
 */
import { describe, expect, it } from "vitest";
import {
  apiRefusals,
  base64Length,
  messageParts,
  parseTreeChanges,
  splitByRequestSize,
} from "../../../lib/git/commit-changes.ts";

const Z = "0".repeat(40);
const A = "a".repeat(40);
const B = "b".repeat(40);
const raw = (entries: [string, string][]) => entries.map(([meta, path]) => `${meta}\0${path}\0`).join("");

describe("parseTreeChanges", () => {
  it("reads additions, edits and deletions with their modes, paths with spaces and tabs kept", () => {
    const listing = raw([
      [`:000000 100644 ${Z} ${A} A`, "new file.txt"],
      [`:100644 100644 ${A} ${B} M`, "src/a\tb.js"],
      [`:100755 000000 ${A} ${Z} D`, "old.sh"],
    ]);
    expect(parseTreeChanges(listing)).toEqual([
      { path: "new file.txt", status: "A", oldMode: "000000", newMode: "100644", blob: A },
      { path: "src/a\tb.js", status: "M", oldMode: "100644", newMode: "100644", blob: B },
      { path: "old.sh", status: "D", oldMode: "100755", newMode: "000000", blob: Z },
    ]);
  });
});

describe("apiRefusals", () => {
  const change = (status: string, oldMode: string, newMode: string, path = "f") => ({
    path,
    status,
    oldMode,
    newMode,
    blob: A,
  });

  it("takes regular files, deletions of anything, and edits that keep an executable's mode", () => {
    expect(
      apiRefusals([
        change("A", "000000", "100644"),
        change("D", "120000", "000000"),
        change("M", "100755", "100755"),
      ]),
    ).toEqual([]);
  });

  it("names a new executable, a symbolic link and a mode change", () => {
    expect(
      apiRefusals([
        change("A", "000000", "100755", "tool.sh"),
        change("A", "000000", "120000", "link"),
        change("M", "100644", "100755", "run.sh"),
      ]),
    ).toEqual(["tool.sh is an executable file", "link is a symbolic link", "run.sh is an executable file"]);
  });
});

describe("splitByRequestSize", () => {
  const items = (...costs: number[]) => costs.map((cost, index) => ({ cost, index }));

  it("keeps everything in one group under the cap", () => {
    expect(splitByRequestSize(items(10, 20, 30), 100)).toHaveLength(1);
  });

  it("starts a new group before the cap is passed, in order, and puts an item over the cap alone", () => {
    const groups = splitByRequestSize(items(40, 40, 40, 500, 10), 100);
    expect(groups.map((group) => group.map((item) => item.index))).toEqual([[0, 1], [2], [3], [4]]);
  });

  it("answers one empty group for a commit with no change", () => {
    expect(splitByRequestSize([], 100)).toEqual([[]]);
  });

  it("costs files as GitHub receives them, base64", () => {
    expect(base64Length(0)).toBe(0);
    expect(base64Length(1)).toBe(4);
    expect(base64Length(3)).toBe(4);
    expect(base64Length(4)).toBe(8);
  });
});

describe("messageParts", () => {
  it("splits the headline from the body and names the part of a split commit", () => {
    expect(messageParts("feat: x (#1)\n\nWhy.\nMore.\n", 1, 1)).toEqual({
      headline: "feat: x (#1)",
      body: "Why.\nMore.",
    });
    expect(messageParts("feat: x (#1)", 2, 3)).toEqual({ headline: "feat: x (#1) (part 2 of 3)", body: "" });
  });
});
