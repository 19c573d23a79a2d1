/** Reads Locus's markdown back as structure (sections, table cells, links), so tests assert what a reader sees. */

/** Each `### ` section's text by its heading; the text before the first one under "". */
export function sections(body: string): Map<string, string> {
  const found = new Map<string, string>();
  let heading = "";
  let lines: string[] = [];
  for (const line of body.split("\n")) {
    const next = /^### (.*)$/.exec(line)?.[1];
    if (next === undefined) {
      lines.push(line);
      continue;
    }
    found.set(heading, lines.join("\n").trim());
    heading = next;
    lines = [];
  }
  found.set(heading, lines.join("\n").trim());
  return found;
}

/** The cells of a table's body rows (header and separator left out), `\|` kept as written. */
export function tableRows(text: string): string[][] {
  const rows = text.split("\n").filter((line) => line.startsWith("| "));
  return rows.slice(2).map((line) =>
    line
      .slice(2, -2)
      .split(/(?<!\\) \| /)
      .map((cell) => cell.trim()),
  );
}

export function markdownLinks(text: string): { text: string; url: string }[] {
  return [...text.matchAll(/\[([^\]]*)\]\(([^)\s]+)\)/g)].map((match) => ({
    text: match[1] ?? "",
    url: match[2] ?? "",
  }));
}
