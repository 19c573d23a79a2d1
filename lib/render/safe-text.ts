/**
 * Someone else's Markdown (the agent's summary, a model's answer, a
 * reviewer's words) as Markdown Locus can post: read into a tree (outline
 * kept, everything else text), defused and serialised (`lib/render/tree/`).
 * For text placed into a larger document, build the document as a tree with
 * `untrustedMarkdown` instead; this is for a whole body of such text.
 */
import { toGitHubMarkdown } from "./tree/serialize.ts";
import { root } from "./tree/nodes.ts";
import { untrustedMarkdown } from "./tree/untrusted-text.ts";

export { isGitHubImage } from "./tree/github-image.ts";

/** The text with mentions and closing keywords defused, and nothing in it that renders as HTML or an image. */
export function safeToPublish(text: string): string {
  return toGitHubMarkdown(root(...untrustedMarkdown(text)));
}
