/** Branch names Locus creates. Every name is a valid git ref whatever the title. */

export function issueBranch(issue: number): string {
  return `locus/issue-${issue}`;
}

/** Where interrupted work is saved, so the next attempt starts from it. */
export function wipBranch(issue: number): string {
  return `locus/wip/issue-${issue}`;
}

export function sprintBranch(milestone: { number: number; title: string }): string {
  return `locus/sprint-${slugify(milestone.title) || `milestone-${milestone.number}`}`;
}

const MAX_SLUG = 48;

/**
 * Lower-case ASCII letters, digits and single hyphens. Accents are folded
 * (`Été` → `ete`); scripts with no ASCII form leave nothing, and the caller
 * falls back to a number, so the result is always a safe ref component.
 */
export function slugify(text: string): string {
  const folded = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
  const slug = folded.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return slug.slice(0, MAX_SLUG).replace(/-+$/, "");
}

const ISSUE_BRANCH = /^locus\/issue-([1-9][0-9]*)$/;

/** The issue a Locus task branch belongs to, or undefined for any other branch. */
export function issueOfBranch(branch: string): number | undefined {
  const match = ISSUE_BRANCH.exec(branch);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
