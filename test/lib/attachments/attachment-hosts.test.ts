import { describe, expect, it } from "vitest";
import { isAttachmentUrl, mayFollowRedirect } from "../../../lib/attachments/attachment-hosts.ts";

const DOTCOM = "https://github.com";
const GHES = "https://ghe.example.com";

describe("isAttachmentUrl", () => {
  it("accepts GitHub's attachment URLs", () => {
    expect(isAttachmentUrl("https://github.com/user-attachments/assets/0a1b-2c3d", DOTCOM)).toBe(true);
    expect(isAttachmentUrl("https://user-images.githubusercontent.com/1/shot.png", DOTCOM)).toBe(true);
    expect(isAttachmentUrl("https://private-user-images.githubusercontent.com/2/a.png?jwt=x", DOTCOM)).toBe(
      true,
    );
  });

  it("accepts the server's own attachment path on GitHub Enterprise Server, in the server's scheme", () => {
    expect(isAttachmentUrl("https://ghe.example.com/user-attachments/assets/abc", GHES)).toBe(true);
    expect(
      isAttachmentUrl("http://127.0.0.1:4000/user-attachments/assets/abc", "http://127.0.0.1:4000"),
    ).toBe(true);
    expect(isAttachmentUrl("http://ghe.example.com/user-attachments/assets/abc", GHES)).toBe(false);
  });

  it("refuses every other host, path, scheme or a URL with credentials", () => {
    for (const url of [
      "https://example.com/user-attachments/assets/abc",
      "https://github.com.evil.example/user-attachments/assets/abc",
      "https://github.com/acme/widgets/raw/main/shot.png",
      "https://github.com/user-attachments/assets/../../login",
      "https://github.com/user-attachments/files/123/report.pdf",
      "http://github.com/user-attachments/assets/abc",
      "http://user-images.githubusercontent.com/1/shot.png",
      "https://user:pass@github.com/user-attachments/assets/abc",
      "https://raw.githubusercontent.com/acme/widgets/main/shot.png",
      "https://ghe.example.com/user-attachments/assets/abc",
      "javascript:alert(1)",
      "not a url",
    ]) {
      expect(isAttachmentUrl(url, DOTCOM), url).toBe(false);
    }
  });
});

describe("mayFollowRedirect", () => {
  it("follows GitHub's redirects to its attachment hosts and its asset storage, nowhere else", () => {
    expect(mayFollowRedirect("https://private-user-images.githubusercontent.com/2/a.png?jwt=x", DOTCOM)).toBe(
      true,
    );
    expect(
      mayFollowRedirect(
        "https://github-production-user-asset-6210df.s3.amazonaws.com/1/a.png?X-Amz=1",
        DOTCOM,
      ),
    ).toBe(true);
    expect(mayFollowRedirect("https://evil.s3.amazonaws.com/a.png", DOTCOM)).toBe(false);
    expect(mayFollowRedirect("https://example.com/a.png", DOTCOM)).toBe(false);
  });
});
