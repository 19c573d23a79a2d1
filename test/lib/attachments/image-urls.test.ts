import { describe, expect, it } from "vitest";
import { imageUrlsIn } from "../../../lib/attachments/image-urls.ts";

describe("imageUrlsIn", () => {
  it("finds Markdown images, with or without a title, and HTML img tags as GitHub writes them", () => {
    const text = [
      "Steps:",
      "![screenshot](https://github.com/user-attachments/assets/0a1b2c3d-aaaa-bbbb-cccc-0123456789ab)",
      '![with title](<https://user-images.githubusercontent.com/1/shot.png> "the title")',
      '<img width="600" alt="Screenshot" src="https://github.com/user-attachments/assets/11111111-2222-3333-4444-555555555555" />',
      "<IMG SRC='https://private-user-images.githubusercontent.com/2/a.png?jwt=x&amp;y=1'>",
    ].join("\n");

    expect(imageUrlsIn(text)).toEqual([
      "https://github.com/user-attachments/assets/0a1b2c3d-aaaa-bbbb-cccc-0123456789ab",
      "https://user-images.githubusercontent.com/1/shot.png",
      "https://github.com/user-attachments/assets/11111111-2222-3333-4444-555555555555",
      "https://private-user-images.githubusercontent.com/2/a.png?jwt=x&y=1",
    ]);
  });

  it("lists a URL once, and never one in code or an HTML comment", () => {
    const url = "https://github.com/user-attachments/assets/abc";
    const text = [
      `![a](${url}) and again ![b](${url})`,
      "`![inline](https://github.com/user-attachments/assets/inline)`",
      "```md",
      "![fenced](https://github.com/user-attachments/assets/fenced)",
      "```",
      "<!-- ![hidden](https://github.com/user-attachments/assets/hidden) -->",
    ].join("\n");

    expect(imageUrlsIn(text)).toEqual([url]);
  });

  it("ignores links that are not images", () => {
    expect(imageUrlsIn("[a link](https://github.com/user-attachments/assets/abc) <a href='x'>x</a>")).toEqual(
      [],
    );
  });
});
