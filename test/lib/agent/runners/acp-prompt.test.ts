import { describe, expect, it } from "vitest";
import { acpPrompt } from "../../../../lib/agent/runners/acp-prompt.ts";
import type { ExecuteOptions } from "../../../../lib/agent/runner.ts";

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]);
const execute: ExecuteOptions = {
  prompt: {
    system: "",
    context: "",
    task: "Fix the header",
    images: [{ name: "image-1.png", from: "the issue description", mediaType: "image/png", bytes: png }],
  },
  cwd: "/work",
  model: "m",
  maxTurns: 1,
};

describe("acpPrompt", () => {
  it("sends the images as image blocks to an agent that takes them", () => {
    const blocks = acpPrompt(execute, undefined, true);

    expect(blocks.map((block) => block.type)).toEqual(["text", "image"]);
    expect(blocks[1]).toEqual({
      type: "image",
      mimeType: "image/png",
      data: Buffer.from(png).toString("base64"),
    });
  });

  it("tells an agent that takes no images which ones it is not shown", () => {
    const blocks = acpPrompt(execute, undefined, false);

    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.type === "text" && blocks[0].text).toContain(
      "The issue has images you cannot be shown (this agent takes no images in a prompt):\n\n- image-1.png: from the issue description",
    );
  });
});
