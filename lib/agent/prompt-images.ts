/**
 * How the issue's images reach each kind of agent: the built-in loop sends them as image blocks
 * in its first message (https://docs.claude.com/en/docs/build-with-claude/vision); a CLI agent,
 * which takes its prompt as text, gets them as files it can open, named in the prompt; an ACP
 * agent gets the protocol's own image blocks (runners/acp-prompt.ts).
 */
import type Anthropic from "@anthropic-ai/sdk";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AttachedImage } from "../attachments/attached-image.ts";

/** The lines that tell the agent what the images are: text, never the image itself. */
export function listed(images: readonly AttachedImage[], where: (image: AttachedImage) => string): string {
  const lines = images.map((image) => `- ${where(image)}: from ${image.from}`);
  return lines.join("\n");
}

/** The first message's blocks: the task, a note naming the images, then the images in that order. */
export function taskBlocks(task: string, images: readonly AttachedImage[]): Anthropic.ContentBlockParam[] {
  if (images.length === 0) return [{ type: "text", text: task }];
  const note = `## Images\n\nThe issue's images follow this text, in this order:\n\n${listed(images, (image) => image.name)}`;
  return [
    { type: "text", text: task },
    { type: "text", text: note },
    ...images.map((image): Anthropic.ImageBlockParam => ({
      type: "image",
      source: {
        type: "base64",
        media_type: image.mediaType,
        data: Buffer.from(image.bytes).toString("base64"),
      },
    })),
  ];
}

export interface ImageFiles {
  /** The directory the files are in, for the sandbox to make readable; absent when there are none. */
  readonly dir?: string;
  /** The task's text with the files named in it. */
  readonly task: string;
  /** Removes the files. */
  remove(): Promise<void>;
}

/**
 * The images written as files in a directory of the run's own (made private by mkdtemp, removed
 * when the agent is done), and the task text naming each file by its absolute path.
 */
export async function imageFiles(
  task: string,
  images: readonly AttachedImage[] | undefined,
): Promise<ImageFiles> {
  if (images === undefined || images.length === 0) return { task, remove: () => Promise.resolve() };
  const dir = await mkdtemp(join(tmpdir(), "locus-images-"));
  try {
    for (const image of images) await writeFile(join(dir, image.name), image.bytes, { mode: 0o600 });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const note = `## Images\n\nThe issue's images are saved as files you can open (read-only):\n\n${listed(images, (image) => `\`${join(dir, image.name)}\``)}`;
  return { dir, task: `${task}\n\n${note}`, remove: () => rm(dir, { recursive: true, force: true }) };
}
