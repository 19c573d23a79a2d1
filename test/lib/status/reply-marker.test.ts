import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { repliedCommentId, replyMarker } from "../../../lib/markers.ts";
import { renderReply } from "../../../lib/status/reply-marker.ts";

describe("reply marker", () => {
  it("ends a reply with a hidden line naming the comment it answers", () => {
    const body = renderReply(4242, "**Locus commands**\n\n- `/locus help`");
    expect(body).toBe("**Locus commands**\n\n- `/locus help`\n<!-- locus:reply-to:4242 -->");
    expect(repliedCommentId(body)).toBe(4242);
  });

  it("reads back the id of any reply, whatever its text", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.string(), (id, text) => {
        expect(repliedCommentId(renderReply(id, text))).toBe(id);
      }),
    );
  });

  it("reads a reply GitHub hands back with CRLF line ends or a trailing newline", () => {
    expect(repliedCommentId("Not queued.\r\n<!-- locus:reply-to:7 -->\r\n")).toBe(7);
    expect(repliedCommentId("<!-- locus:reply-to:7 -->")).toBe(7);
  });

  it("names nothing when the marker is quoted, inline, followed by text or malformed", () => {
    for (const body of [
      "Thanks!\n> <!-- locus:reply-to:7 -->",
      "see <!-- locus:reply-to:7 -->",
      "<!-- locus:reply-to:7 -->\nand then more",
      "Done.\n<!-- locus:reply-to:07 -->",
      "Done.\n<!-- locus:reply-to:-7 -->",
      "Done.\n<!-- locus:reply-to:7.5 -->",
      "Done.\n<!-- locus:reply-to: 7 -->",
      "Done.\n<!-- locus:reply-to:99999999999999999999 -->",
      "Done.\n<!-- locus:status -->",
      "",
    ]) {
      expect(repliedCommentId(body), body).toBeUndefined();
    }
  });

  it("refuses to name anything but a comment id", () => {
    for (const id of [0, -1, 1.5, Number.NaN, 2 ** 53]) {
      expect(() => replyMarker(id), String(id)).toThrow(/positive integer/);
    }
  });
});
