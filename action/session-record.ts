/**
 * The run's session record (docs/session-record.md): a JSON Lines file in the runner's temp
 * folder, beside the worktrees and never inside one, so the sandbox (which may write only its
 * worktree, its own temp and home) cannot touch it. After the agent ends, this process uploads
 * it with `@actions/artifact` and returns the job summary's section about it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentRunner } from "../lib/agent/runner.ts";
import { sessionRecordSection } from "../lib/render/session-record-section.ts";
import { toGitHubMarkdown } from "../lib/render/tree/serialize.ts";
import { createFileSink } from "../lib/session-record/file-sink.ts";
import { parseRecord, summarizeRecord } from "../lib/session-record/record-summary.ts";
import { createRecordWriter } from "../lib/session-record/record-writer.ts";
import { recordingRunner } from "../lib/session-record/recording-runner.ts";
import { uploadRecord, type ArtifactUploader } from "../lib/session-record/upload-record.ts";

export interface SessionRecord {
  /** The runner, wrapped so every session it runs is written to the record. */
  readonly runner: AgentRunner;
  /**
   * Uploads the record; resolves to the job summary's Markdown about it, or to nothing when no
   * agent session ran. Never rejects: a failed upload is said in that Markdown.
   */
  publish(runUrl: string | undefined, env: NodeJS.ProcessEnv): Promise<string | undefined>;
}

/** Loaded on first use: the artifact client (HTTP, Azure blob, zip) is needed only after the agent ends. */
async function artifactClient(): Promise<ArtifactUploader> {
  const { DefaultArtifactClient } = await import("@actions/artifact");
  return new DefaultArtifactClient();
}

export function startSessionRecord(
  runner: AgentRunner,
  worktreeRoot: string,
  runId: string,
  mask: (text: string) => string,
): SessionRecord {
  const name = `locus-session-${runId}`;
  const path = join(worktreeRoot, "locus-session-record", `${name}.jsonl`);
  const record = createRecordWriter({ sink: createFileSink(path), clock: () => Date.now(), mask });
  return {
    runner: recordingRunner(runner, record),
    async publish(runUrl, env) {
      const lines = parseRecord(readFileSync(path, "utf8"));
      if (lines.length === 0) return undefined;
      const summary = summarizeRecord(lines);
      const outcome =
        env["ACTIONS_RUNTIME_TOKEN"] && env["ACTIONS_RESULTS_URL"]
          ? await uploadRecord(await artifactClient(), name, path, runUrl)
          : ({
              ok: false,
              reason: "this run has no artifact service (ACTIONS_RESULTS_URL is not set)",
            } as const);
      return toGitHubMarkdown(sessionRecordSection(summary, outcome));
    },
  };
}
