/**
 * Uploads the session record as a workflow artifact, after the agent has ended, from the
 * Action's own process. The uploader is `@actions/artifact`'s client (passed in), which talks
 * to the Actions results service (`ACTIONS_RESULTS_URL`, `ACTIONS_RUNTIME_TOKEN`). A failed
 * upload is an outcome to report, never a failure of the task: the PR stands either way.
 */
import { basename, dirname } from "node:path";

/** The part of `@actions/artifact`'s `ArtifactClient` used here. */
export interface ArtifactUploader {
  uploadArtifact(
    name: string,
    files: string[],
    rootDirectory: string,
    options: { readonly skipArchive: boolean },
  ): Promise<{ readonly id?: number }>;
}

export type UploadOutcome =
  | { readonly ok: true; readonly id: number; readonly url?: string }
  | { readonly ok: false; readonly reason: string };

/** What a task asks of the run's session record when it delivers: its own part, uploaded, to link. */
export interface SessionRecordPublisher {
  /**
   * Uploads what was recorded since the last upload as an artifact named for `part`; undefined
   * when nothing was. Never rejects: a failed upload is an outcome.
   */
  publish(part: string): Promise<UploadOutcome | undefined>;
}

/**
 * The page GitHub shows an artifact at: `<run url>/artifacts/<id>`.
 * https://docs.github.com/actions/managing-workflow-runs-and-deployments/managing-workflow-runs/downloading-workflow-artifacts
 */
function artifactUrl(runUrl: string, id: number): string {
  return `${runUrl}/artifacts/${id}`;
}

export async function uploadRecord(
  uploader: ArtifactUploader,
  artifactName: string,
  path: string,
  runUrl: string | undefined,
): Promise<UploadOutcome> {
  try {
    // The JSON Lines file as it is, not zipped: one file, readable as soon as it is downloaded.
    const { id } = await uploader.uploadArtifact(artifactName, [path], dirname(path), { skipArchive: true });
    if (id === undefined)
      return { ok: false, reason: `the artifact service returned no id for ${basename(path)}` };
    return { ok: true, id, ...(runUrl ? { url: artifactUrl(runUrl, id) } : {}) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
