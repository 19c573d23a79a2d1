/**
 * The job summary's short account of the session record: turns, tool calls, cost, time, and
 * where the record is (a link to its artifact), or, once and plainly, why it was not uploaded.
 */
import type { Root } from "mdast";
import { formatUsd } from "./markdown.ts";
import { heading, link, paragraph, plain, root } from "./tree/nodes.ts";
import { untrustedInline } from "./tree/untrusted-text.ts";
import type { RecordSummary } from "../session-record/record-summary.ts";
import type { UploadOutcome } from "../session-record/upload-record.ts";

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

export function sessionRecordSection(summary: RecordSummary, upload: UploadOutcome): Root {
  const counts = plain(
    `${summary.turns} turns, ${summary.toolCalls} tool calls, ${formatUsd(summary.costUsd)}, ${seconds(summary.durationMs)}.`,
  );
  const where = upload.ok
    ? upload.url
      ? [plain("Full record: "), link(upload.url, plain(`artifact ${upload.id}`))]
      : [plain(`Full record: artifact ${upload.id} of this run.`)]
    : [plain("The session record could not be uploaded: "), ...untrustedInline(upload.reason)];
  return root(heading(3, plain("Session record")), paragraph(counts), paragraph(...where));
}
