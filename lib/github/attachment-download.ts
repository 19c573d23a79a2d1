/**
 * Downloads one file someone attached to an issue or comment, with the run's token: GitHub keeps
 * a private repository's attachments for people who can read it, and answers others 404
 * (https://docs.github.com/en/get-started/writing-on-github/working-with-advanced-formatting/attaching-files).
 * The caller has checked the URL is GitHub's; redirects are followed by hand, only where the
 * caller allows, and the token goes with the first request alone (a redirect's target is a
 * signed URL that needs none). The body is read up to a cap and no further.
 */
import type { OctokitLike } from "./instrument.ts";
import type { AttachmentDownload, AttachmentReads, DownloadOptions } from "./attachment-types.ts";

const MAX_REDIRECTS = 3;

interface Answer {
  readonly status: number;
  readonly location: string | undefined;
  readonly body: ReadableStream<Uint8Array> | null;
}

export function attachmentOps(octokit: OctokitLike): { attachments: AttachmentReads } {
  async function first(url: string, signal: AbortSignal | undefined): Promise<Answer> {
    const response = await octokit.request({
      method: "GET",
      url,
      headers: { accept: "*/*" },
      request: { redirect: "manual", parseSuccessResponseBody: false, ...(signal ? { signal } : {}) },
    });
    return {
      status: response.status,
      location: headerOf(response.headers, "location"),
      body: response.data as ReadableStream<Uint8Array> | null,
    };
  }

  async function next(url: string, signal: AbortSignal | undefined): Promise<Answer> {
    const response = await fetch(url, { redirect: "manual", ...(signal ? { signal } : {}) });
    if (response.status >= 400) {
      await response.body?.cancel();
      throw new Error(`GitHub's storage answered ${response.status}`);
    }
    return {
      status: response.status,
      location: response.headers.get("location") ?? undefined,
      body: response.body,
    };
  }

  async function download(url: string, options: DownloadOptions): Promise<AttachmentDownload> {
    try {
      let answer = await first(url, options.signal);
      let at = url;
      for (let hops = 0; answer.status >= 300 && answer.status < 400; hops += 1) {
        await answer.body?.cancel();
        const target = answer.location === undefined ? undefined : new URL(answer.location, at).href;
        if (target === undefined)
          return { ok: false, why: `GitHub answered ${answer.status} without a location` };
        if (hops >= MAX_REDIRECTS) return { ok: false, why: "too many redirects" };
        if (!options.mayFollow(target)) {
          return {
            ok: false,
            why: `GitHub redirected it to ${new URL(target).host}, which Locus does not fetch from`,
          };
        }
        at = target;
        answer = await next(target, options.signal);
      }
      return await readCapped(answer.body, options.maxBytes);
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      if (status === 404 || status === 403 || status === 401) {
        return { ok: false, why: `GitHub answered ${status}: the run's token cannot read it` };
      }
      return { ok: false, why: error instanceof Error ? error.message : String(error) };
    }
  }

  return { attachments: { download } };
}

/** The body's bytes, or `tooLarge` as soon as they pass `maxBytes` (the rest is never read). */
async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<AttachmentDownload> {
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return { ok: false, why: `it is over ${maxBytes} bytes`, tooLarge: true };
    }
    chunks.push(value);
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}

function headerOf(headers: Record<string, unknown>, name: string): string | undefined {
  const value = headers[name];
  return typeof value === "string" ? value : undefined;
}
