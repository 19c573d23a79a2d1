/**
 * The PR diff as the reviewing agent reads it: every hunk line carries its old
 * and new line numbers, so a finding can name the exact line GitHub will
 * accept (new numbering for added and context lines, old for removed ones).
 */
const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

function column(value: number | undefined): string {
  return (value === undefined ? "" : String(value)).padStart(5);
}

export function numberDiff(diff: string): string {
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  return diff
    .split("\n")
    .map((line) => {
      const hunk = HUNK.exec(line);
      if (hunk) {
        oldLine = Number(hunk[1]);
        newLine = Number(hunk[2]);
        inHunk = true;
        return line;
      }
      if (line.startsWith("diff --git ")) inHunk = false;
      if (!inHunk) return line;
      if (line.startsWith("+")) return `${column(undefined)} ${column(newLine++)} |${line}`;
      if (line.startsWith("-")) return `${column(oldLine++)} ${column(undefined)} |${line}`;
      if (line.startsWith(" ")) return `${column(oldLine++)} ${column(newLine++)} |${line}`;
      return line;
    })
    .join("\n");
}
