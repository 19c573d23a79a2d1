/**
 * The images a coding task's agent sees: files attached to the issue's trusted text (its
 * description as it stood at the trigger, and the comments of people with write access), fetched
 * from GitHub with the run's token. An image in an outsider's comment is never fetched, even when
 * config lets their words in; a URL outside GitHub's attachment storage is never fetched at all
 * (lib/attachments/attachment-hosts.ts). Each image is checked to be a PNG, JPEG, GIF or WebP by
 * its bytes and kept under the size and count limits; an attachment left out is named, so the
 * agent and the issue both know, and the task goes on without it.
 */
import type { AttachmentReads } from "../github/index.ts";
import { isAttachmentUrl, mayFollowRedirect } from "../attachments/attachment-hosts.ts";
import { IMAGE_LIMITS, type AttachedImage, type ImageLimits } from "../attachments/attached-image.ts";
import { imageExtension, imageMediaType } from "../attachments/image-bytes.ts";
import { imageUrlsIn } from "../attachments/image-urls.ts";
import type { PromptIssue } from "../prompt/task-prompt.ts";

/** An attachment left out: where it was (`from` names the comment's author; `place` names nobody) and why. */
export interface LeftOut {
  readonly from: string;
  readonly place: string;
  readonly why: string;
}

export interface IssueImages {
  readonly images: readonly AttachedImage[];
  readonly leftOut: readonly LeftOut[];
}

interface Found {
  readonly url: string;
  readonly from: string;
  readonly place: string;
}

/** The attachment URLs of the trusted text, in reading order, each once. */
function trustedAttachments(issue: PromptIssue, server: string): Found[] {
  const texts = [
    { from: "the issue description", place: "the issue description", text: issue.body },
    ...issue.comments
      .filter((comment) => comment.outsider !== true)
      .map((comment) => ({
        from: `a comment by @${comment.author}`,
        place: "a comment",
        text: comment.body,
      })),
  ];
  const seen = new Set<string>();
  const found: Found[] = [];
  for (const { from, place, text } of texts) {
    for (const url of imageUrlsIn(text)) {
      if (seen.has(url) || !isAttachmentUrl(url, server)) continue;
      seen.add(url);
      found.push({ url, from, place });
    }
  }
  return found;
}

function size(bytes: number): string {
  if (bytes < 1_000) return `${bytes} bytes`;
  const [unit, scale] = bytes < 1_000_000 ? ["kB", 1_000] : ["MB", 1_000_000];
  return `${(bytes / scale).toFixed(2).replace(/\.?0+$/, "")} ${unit}`;
}

export async function issueImages(
  attachments: AttachmentReads,
  issue: PromptIssue,
  options: { readonly server: string; readonly limits?: ImageLimits; readonly signal?: AbortSignal },
): Promise<IssueImages> {
  const limits = options.limits ?? IMAGE_LIMITS;
  const images: AttachedImage[] = [];
  const leftOut: LeftOut[] = [];
  let total = 0;
  for (const found of trustedAttachments(issue, options.server)) {
    const leave = (why: string) => leftOut.push({ from: found.from, place: found.place, why });
    if (images.length >= limits.maxCount) {
      leave(`over the limit of ${limits.maxCount} images a task`);
      continue;
    }
    const room = Math.min(limits.maxBytes, limits.maxTotalBytes - total);
    const got = await attachments.download(found.url, {
      maxBytes: room,
      mayFollow: (url) => mayFollowRedirect(url, options.server),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!got.ok) {
      const why = got.tooLarge
        ? room < limits.maxBytes
          ? `the images together are over ${size(limits.maxTotalBytes)}`
          : `it is over the ${size(limits.maxBytes)} limit for one image`
        : `not downloaded (${got.why})`;
      leave(why);
      continue;
    }
    const mediaType = imageMediaType(got.bytes);
    if (mediaType === undefined) {
      leave("not a PNG, JPEG, GIF or WebP image");
      continue;
    }
    total += got.bytes.byteLength;
    images.push({
      name: `image-${images.length + 1}.${imageExtension(mediaType)}`,
      from: found.from,
      mediaType,
      bytes: got.bytes,
    });
  }
  return { images, leftOut };
}
