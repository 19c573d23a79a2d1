import { describe, expect, it } from "vitest";
import type { AttachmentReads, DownloadOptions } from "../../../lib/github/index.ts";
import { issueImages } from "../../../lib/task/issue-images.ts";
import type { PromptIssue } from "../../../lib/prompt/task-prompt.ts";

const SERVER = "https://github.com";
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const asset = (id: string) => `https://github.com/user-attachments/assets/${id}`;

/** GitHub's attachments as a map from URL to bytes, answering as the gateway does; every URL asked is kept. */
function storage(files: Record<string, Uint8Array>) {
  const asked: string[] = [];
  const reads: AttachmentReads = {
    download(url: string, options: DownloadOptions) {
      asked.push(url);
      const bytes = files[url];
      if (bytes === undefined) return Promise.resolve({ ok: false, why: "GitHub answered 404" });
      if (bytes.byteLength > options.maxBytes)
        return Promise.resolve({ ok: false, why: "too large", tooLarge: true });
      return Promise.resolve({ ok: true, bytes });
    },
  };
  return { reads, asked };
}

function issue(body: string, comments: PromptIssue["comments"] = []): PromptIssue {
  return { number: 7, title: "Fix the layout", body, labels: [], comments };
}

describe("issueImages", () => {
  it("fetches the attachments of the description and writers' comments, never an outsider's or another host's", async () => {
    const { reads, asked } = storage({ [asset("a")]: PNG, [asset("b")]: PNG });
    const found = await issueImages(
      reads,
      issue(`![shot](${asset("a")}) ![badge](https://img.shields.io/badge/x.png)`, [
        { author: "wendy", body: `<img src="${asset("b")}">` },
        { author: "olivia", body: `![mine](${asset("c")})`, outsider: true },
      ]),
      { server: SERVER },
    );

    expect(asked).toEqual([asset("a"), asset("b")]);
    expect(found.images.map((image) => [image.name, image.from, image.mediaType])).toEqual([
      ["image-1.png", "the issue description", "image/png"],
      ["image-2.png", "a comment by @wendy", "image/png"],
    ]);
    expect(found.leftOut).toEqual([]);
  });

  it("leaves out, with why, an image over the cap, one that is not an image and one past the count", async () => {
    const big = new Uint8Array(50).fill(0x89);
    const { reads } = storage({
      [asset("big")]: big,
      [asset("html")]: new TextEncoder().encode("<!DOCTYPE html>"),
      [asset("ok1")]: PNG,
      [asset("ok2")]: PNG,
    });
    const body = ["big", "html", "ok1", "ok2"].map((id) => `![${id}](${asset(id)})`).join("\n");

    const found = await issueImages(reads, issue(body), {
      server: SERVER,
      limits: { maxCount: 1, maxBytes: 40, maxTotalBytes: 100 },
    });

    expect(found.images.map((image) => image.name)).toEqual(["image-1.png"]);
    expect(found.leftOut.map((left) => left.why)).toEqual([
      "it is over the 40 bytes limit for one image",
      "not a PNG, JPEG, GIF or WebP image",
      "over the limit of 1 images a task",
    ]);
  });

  it("stops at the limit for all images together", async () => {
    const { reads } = storage({ [asset("a")]: PNG, [asset("b")]: PNG });
    const found = await issueImages(reads, issue(`![a](${asset("a")}) ![b](${asset("b")})`), {
      server: SERVER,
      limits: { maxCount: 8, maxBytes: 20, maxTotalBytes: 20 },
    });

    expect(found.images).toHaveLength(1);
    expect(found.leftOut).toEqual([
      {
        from: "the issue description",
        place: "the issue description",
        why: "the images together are over 20 bytes",
      },
    ]);
  });
});
