/**
 * What kind of image some bytes are, read from the bytes themselves (their magic numbers), never
 * from a file name or a Content-Type header someone else chose. Only the formats the Messages
 * API takes as image blocks (https://docs.claude.com/en/docs/build-with-claude/vision): PNG,
 * JPEG, GIF and WebP. Anything else is not an image to Locus.
 */

export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = [..."GIF87a"].map((c) => c.charCodeAt(0));
const GIF89 = [..."GIF89a"].map((c) => c.charCodeAt(0));
const RIFF = [..."RIFF"].map((c) => c.charCodeAt(0));
const WEBP = [..."WEBP"].map((c) => c.charCodeAt(0));

function startsWith(bytes: Uint8Array, magic: readonly number[], at = 0): boolean {
  return bytes.length >= at + magic.length && magic.every((byte, i) => bytes[at + i] === byte);
}

export function imageMediaType(bytes: Uint8Array): ImageMediaType | undefined {
  if (startsWith(bytes, PNG)) return "image/png";
  if (startsWith(bytes, JPEG)) return "image/jpeg";
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return "image/gif";
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return "image/webp";
  return undefined;
}

/** The file extension an image of this kind is saved with (a CLI agent opens it by name). */
export function imageExtension(type: ImageMediaType): string {
  return type.slice("image/".length).replace("jpeg", "jpg");
}
