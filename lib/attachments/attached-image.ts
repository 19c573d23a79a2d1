/**
 * An image from the issue that goes to the agent with its task, and the limits on them. Types and
 * numbers only: the runners read them, the task gathers them (lib/task/issue-images.ts).
 */
import type { ImageMediaType } from "./image-bytes.ts";

export interface AttachedImage {
  /** A file name for it (`image-1.png`): how the prompt refers to it, and a CLI agent's file. */
  readonly name: string;
  /** Where in the issue it was: "the issue description", "a comment by @wendy". */
  readonly from: string;
  readonly mediaType: ImageMediaType;
  readonly bytes: Uint8Array;
}

export interface ImageLimits {
  /** At most this many images go with a task; the rest are named as left out. */
  readonly maxCount: number;
  /** An image larger than this is left out (the download stops there). */
  readonly maxBytes: number;
  /** All images together. */
  readonly maxTotalBytes: number;
}

/**
 * The Messages API takes an image of up to 5 MB and a request of up to 32 MB
 * (https://docs.claude.com/en/docs/build-with-claude/vision). Images travel base64-encoded (a
 * third larger) in every turn's request, so each stays under 3.75 MB raw (5 MB encoded) and all
 * of them under 12 MB raw (16 MB encoded), half the request, leaving room for the conversation.
 */
export const IMAGE_LIMITS: ImageLimits = {
  maxCount: 8,
  maxBytes: 3_750_000,
  maxTotalBytes: 12_000_000,
};
