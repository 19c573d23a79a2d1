import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  issueBranch,
  issueOfBranch,
  slugify,
  sprintBranch,
  wipBranch,
} from "../../../lib/naming/branches.ts";
import {
  closedIssueOf,
  commitType,
  iterateCommitMessage,
  pullRequestTitle,
  taskCommitMessage,
} from "../../../lib/naming/commit.ts";

/** git check-ref-format's rules for a branch name, as far as Locus can produce them. */
function isValidRef(ref: string): boolean {
  return (
    // eslint-disable-next-line no-control-regex -- control characters are exactly what git refuses
    !/[\x00-\x20~^:?*[\\\x7f]/.test(ref) &&
    !ref.includes("..") &&
    !ref.includes("@{") &&
    !ref.includes("//") &&
    !ref.endsWith("/") &&
    !ref.endsWith(".") &&
    !ref.endsWith(".lock") &&
    ref.split("/").every((part) => part.length > 0 && !part.startsWith("."))
  );
}

describe("branch names", () => {
  it("names task, wip and sprint branches", () => {
    expect(issueBranch(42)).toBe("locus/issue-42");
    expect(wipBranch(42)).toBe("locus/wip/issue-42");
    expect(sprintBranch({ number: 3, title: "Sprint 1: Auth & Login" })).toBe(
      "locus/sprint-sprint-1-auth-login",
    );
  });

  it("folds accents and falls back to the number for titles with no ASCII form", () => {
    expect(slugify("Été à Zürich")).toBe("ete-a-zurich");
    expect(sprintBranch({ number: 7, title: "スプリント 🚀" })).toBe("locus/sprint-milestone-7");
    expect(slugify("x".repeat(100))).toHaveLength(48);
  });

  it("is a valid git ref for any title (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 80 }),
        fc.integer({ min: 1, max: 9999 }),
        (title, n) => {
          const branch = sprintBranch({ number: n, title });
          expect(isValidRef(branch)).toBe(true);
          expect(branch).toMatch(/^locus\/sprint-[a-z0-9-]+$/);
        },
      ),
    );
  });

  it("reads the issue back from a task branch only", () => {
    expect(issueOfBranch("locus/issue-17")).toBe(17);
    expect(issueOfBranch("locus/wip/issue-17")).toBeUndefined();
    expect(issueOfBranch("feature/issue-17")).toBeUndefined();
  });
});

describe("commit messages and PR titles", () => {
  it("follows <type>: <title> (#N) with the type from labels", () => {
    expect(taskCommitMessage({ number: 12, title: "Add login", labels: ["type:bug"] })).toBe(
      "fix: Add login (#12)",
    );
    expect(taskCommitMessage({ number: 3, title: "Tidy\n  up\tcode ", labels: ["type:chore"] })).toBe(
      "chore: Tidy up code (#3)",
    );
    expect(commitType([])).toBe("feat");
    expect(commitType(["type:docs", "type:bug"])).toBe("docs");
    expect(iterateCommitMessage(9)).toBe("fix: address review feedback (#9)");
    expect(pullRequestTitle({ number: 1, title: "Docs", labels: ["type:docs"] })).toBe("docs: Docs (#1)");
  });

  it("finds the issue a PR body closes", () => {
    expect(closedIssueOf("Closes #12\n\nSummary")).toBe(12);
    expect(closedIssueOf("This fixes #4.")).toBe(4);
    expect(closedIssueOf("Relates to #4")).toBeUndefined();
    expect(closedIssueOf(null)).toBeUndefined();
  });
});
