/**
 * The `command` input of a fix-ci run names what failed: `run <id>` (a
 * workflow run), `suite <id>` (another app's check suite), or nothing (by
 * hand: whatever failed on the PR's head).
 */
import type { CiSource } from "../github/index.ts";

export function formatCiSource(source: { kind: "run" | "suite"; id: number }): string {
  return `${source.kind} ${source.id}`;
}

export function parseCiSource(command: string, headSha: string): CiSource {
  const match = /^(run|suite) ([1-9][0-9]{0,15})$/.exec(command.trim());
  if (!match?.[1] || !match[2]) return { kind: "commit", sha: headSha };
  return { kind: match[1] === "run" ? "run" : "suite", id: Number(match[2]) };
}
