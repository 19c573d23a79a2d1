/**
 * The job summary's short account of the session record: for each part uploaded (one per
 * delivered task, and one for what the run recorded after), its turns, tool calls, cost and
 * time, and where it is (a link to its artifact), or, once and plainly, why it was not uploaded.
 */
import type { Root } from "mdast";
import { formatUsd } from "./markdown.ts";
import { code, heading, link, list, plain, root } from "./tree/nodes.ts";
import { untrustedInline } from "./tree/untrusted-text.ts";
import type { RecordSummary } from "../session-record/record-summary.ts";
import type { UploadOutcome } from "../session-record/upload-record.ts";

export interface RecordPart {
  /** The artifact's name. */
  readonly name: string;
  readonly summary: RecordSummary;
  readonly upload: UploadOutcome;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

function partLine(part: RecordPart) {
  const { summary, upload } = part;
  const counts = plain(
    `: ${summary.turns} turns, ${summary.toolCalls} tool calls, ${formatUsd(summary.costUsd)}, ${seconds(summary.durationMs)}. `,
  );
  const where = upload.ok
    ? upload.url
      ? [link(upload.url, plain(`artifact ${upload.id}`))]
      : [plain(`Artifact ${upload.id} of this run.`)]
    : [plain("Not uploaded: "), ...untrustedInline(upload.reason)];
  return [code(part.name), counts, ...where];
}

export function sessionRecordSection(parts: readonly RecordPart[]): Root {
  return root(heading(3, plain("Session record")), list(parts.map(partLine)));
}
