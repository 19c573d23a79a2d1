import { describe, expect, it } from "vitest";
import { sessionRecordSection } from "../../../lib/render/session-record-section.ts";
import { toGitHubMarkdown } from "../../../lib/render/tree/serialize.ts";
import { uploadRecord, type ArtifactUploader } from "../../../lib/session-record/upload-record.ts";

const RUN_URL = "https://github.com/o/r/actions/runs/42";
const SUMMARY = { turns: 3, toolCalls: 5, costUsd: 0.5, durationMs: 61_000 };

describe("uploadRecord", () => {
  it("uploads the one file from its folder and links the artifact page", async () => {
    const calls: unknown[] = [];
    const uploader: ArtifactUploader = {
      uploadArtifact: (...args) => {
        calls.push(args);
        return Promise.resolve({ id: 7 });
      },
    };
    const outcome = await uploadRecord(uploader, "locus-session", "/tmp/rec/session.jsonl", RUN_URL);
    expect(calls).toEqual([["locus-session", ["/tmp/rec/session.jsonl"], "/tmp/rec", { skipArchive: true }]]);
    expect(outcome).toEqual({ ok: true, id: 7, url: `${RUN_URL}/artifacts/7` });
    const parts = [{ name: "locus-session-42-issue-3", summary: SUMMARY, upload: outcome }];
    expect(toGitHubMarkdown(sessionRecordSection(parts))).toBe(
      [
        "### Session record",
        "",
        `- \`locus-session-42-issue-3\`: 3 turns, 5 tool calls, $0.5000, 61 s. [artifact 7](${RUN_URL}/artifacts/7)`,
      ].join("\n"),
    );
  });

  it("turns a failed upload into a reason said once, not an error", async () => {
    const uploader: ArtifactUploader = {
      uploadArtifact: () => Promise.reject(new Error("Failed to CreateArtifact: 503")),
    };
    const outcome = await uploadRecord(uploader, "locus-session", "/tmp/rec/session.jsonl", RUN_URL);
    expect(outcome).toEqual({ ok: false, reason: "Failed to CreateArtifact: 503" });
    const markdown = toGitHubMarkdown(
      sessionRecordSection([{ name: "locus-session-42-ask", summary: SUMMARY, upload: outcome }]),
    );
    expect(markdown.match(/Not uploaded/g)).toHaveLength(1);
    expect(markdown).toContain("Failed to CreateArtifact: 503");
  });
});
