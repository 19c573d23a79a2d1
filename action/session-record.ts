/**
 * The run's session record (docs/session-record.md): a JSON Lines file in the runner's temp
 * folder, beside the worktrees and never inside one, so the sandbox (which may write only its
 * worktree, its own temp and home) cannot touch it. This process uploads it with
 * `@actions/artifact` in parts: each task's part when the task delivers its pull request (so the
 * PR and the status comment can link it), and what is left when the run ends.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentRunner } from "../lib/agent/runner.ts";
import { sessionRecordSection, type RecordPart } from "../lib/render/session-record-section.ts";
import { toGitHubMarkdown } from "../lib/render/tree/serialize.ts";
import { createFileSink } from "../lib/session-record/file-sink.ts";
import { parseRecord, summarizeRecord } from "../lib/session-record/record-summary.ts";
import { createRecordWriter } from "../lib/session-record/record-writer.ts";
import { recordingRunner } from "../lib/session-record/recording-runner.ts";
import {
  uploadRecord,
  type ArtifactUploader,
  type SessionRecordPublisher,
  type UploadOutcome,
} from "../lib/session-record/upload-record.ts";

export interface SessionRecord extends SessionRecordPublisher {
  /** The runner, wrapped so every session it runs is written to the record. */
  readonly runner: AgentRunner;
  /**
   * Uploads what is left as the part `part` (the run's mode); the job summary's Markdown about
   * every part, or nothing when no session ran.
   */
  finish(part: string): Promise<string | undefined>;
}

export interface SessionRecordOptions {
  readonly runner: AgentRunner;
  /** Where the record is written: the runner's temp folder, which the sandbox does not show. */
  readonly folder: string;
  readonly runId: string;
  readonly runUrl: string | undefined;
  readonly mask: (text: string) => string;
  /** The Actions environment: the artifact service's URL and the runtime token. */
  readonly env: NodeJS.ProcessEnv;
}

/** Loaded on first use: the artifact client (HTTP, Azure blob, zip) is a chunk of its own. */
async function artifactClient(): Promise<ArtifactUploader> {
  const { DefaultArtifactClient } = await import("@actions/artifact");
  return new DefaultArtifactClient();
}

export function startSessionRecord(options: SessionRecordOptions): SessionRecord {
  const name = `locus-session-${options.runId}`;
  const folder = join(options.folder, "locus-session-record");
  const path = join(folder, `${name}.jsonl`);
  const record = createRecordWriter({
    sink: createFileSink(path),
    clock: () => Date.now(),
    mask: options.mask,
  });
  const parts: RecordPart[] = [];
  let uploadedBytes = 0;

  const upload = async (partName: string, partPath: string): Promise<UploadOutcome> => {
    if (!options.env["ACTIONS_RUNTIME_TOKEN"] || !options.env["ACTIONS_RESULTS_URL"])
      return { ok: false, reason: "this run has no artifact service (ACTIONS_RESULTS_URL is not set)" };
    return uploadRecord(await artifactClient(), partName, partPath, options.runUrl);
  };

  const publish = async (part: string): Promise<UploadOutcome | undefined> => {
    const written = readFileSync(path);
    const text = written.subarray(uploadedBytes).toString("utf8");
    const lines = parseRecord(text);
    if (lines.length === 0) return undefined;
    uploadedBytes = written.length;
    const partName = `${name}-${part}`;
    // The part as a file of its own: with `skipArchive` the artifact is that one file, under its name.
    const partPath = join(folder, `${partName}.jsonl`);
    writeFileSync(partPath, text);
    const outcome = await upload(partName, partPath);
    parts.push({ name: partName, summary: summarizeRecord(lines), upload: outcome });
    return outcome;
  };

  return {
    runner: recordingRunner(options.runner, record),
    publish,
    async finish(part) {
      await publish(part);
      return parts.length === 0 ? undefined : toGitHubMarkdown(sessionRecordSection(parts));
    },
  };
}
