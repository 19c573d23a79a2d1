/** The commit message of a fix-ci round. */
export function fixCiCommitMessage(issue: number): string {
  return `fix: make CI pass (#${issue})`;
}
