/**
 * Reads published Markdown back the way GitHub does (CommonMark + GFM, with
 * character references decoded) and lists what in it would act: mentions,
 * closing keywords before a reference, and images from outside GitHub
 * (Markdown, reference-style or HTML). Deliberately wider than GitHub: text is
 * read node by node and a block's text as one string, and a keyword followed
 * by code or a link counts too.
 */
import type { Definition, Nodes, Parents, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { isGitHubImage } from "../../../lib/render/tree/github-image.ts";

export interface LiveMarkup {
  readonly mentions: string[];
  readonly closings: string[];
  readonly outsideImages: string[];
}

const MENTION = /(?:^|[^A-Za-z0-9])(@[A-Za-z0-9][A-Za-z0-9-]*(?:\/[A-Za-z0-9][\w.-]*)?)/g;
const CLOSING =
  /(?<![\p{L}\p{N}_])((?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s*(?:#\d+|[\w.-]+\/[\w.-]+#\d+|https?:\/\/\S+|GH-\d+|\uFFFC))/giu;
const MEDIA = /<(?:img|image|video|audio|source|picture|object|embed|iframe|input)\b/i;
const SEPARATOR = "\uFFFC";

function phrasingText(block: Parents, perNode: string[]): string {
  let text = "";
  const walk = (node: Nodes): void => {
    if (node.type === "text") {
      perNode.push(node.value);
      text += node.value;
    } else if ("children" in node) node.children.forEach(walk);
    else text += SEPARATOR;
  };
  block.children.forEach(walk);
  return text;
}

const GITHUB_FLAVOURED = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };

/** Published Markdown as GitHub reads it (CommonMark and GFM), for a check that looks at more than `liveMarkup`. */
export function readAsGitHub(markdown: string): Root {
  return fromMarkdown(markdown, GITHUB_FLAVOURED);
}

export function liveMarkup(markdown: string): LiveMarkup {
  return liveMarkupIn(readAsGitHub(markdown));
}

/** What would act in a tree `readAsGitHub` gave, so a check reading it for more parses it once. */
export function liveMarkupIn(tree: Root): LiveMarkup {
  const found: LiveMarkup = { mentions: [], closings: [], outsideImages: [] };
  const definitions = new Map<string, Definition>();
  const references: string[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === "definition") definitions.set(node.identifier, node);
    if (node.type === "imageReference") references.push(node.identifier);
    if (node.type === "image" && !isGitHubImage(node.url)) found.outsideImages.push(node.url);
    if (node.type === "html" && MEDIA.test(node.value)) found.outsideImages.push(node.value);
    if (node.type === "paragraph" || node.type === "heading" || node.type === "tableCell") {
      const perNode: string[] = [];
      const whole = phrasingText(node, perNode);
      for (const text of [whole, ...perNode]) {
        for (const match of text.matchAll(MENTION)) found.mentions.push(match[1] ?? "");
        for (const match of text.matchAll(CLOSING)) found.closings.push(match[1] ?? "");
      }
    }
    if ("children" in node) node.children.forEach(visit);
  };
  visit(tree);
  for (const identifier of references) {
    const url = definitions.get(identifier)?.url;
    if (url !== undefined && !isGitHubImage(url)) found.outsideImages.push(url);
  }
  return {
    mentions: [...new Set(found.mentions)],
    closings: [...new Set(found.closings)],
    outsideImages: found.outsideImages,
  };
}
