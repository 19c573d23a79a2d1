import { describe, expect, it } from "vitest";
import { imageExtension, imageMediaType } from "../../../lib/attachments/image-bytes.ts";

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(values.flatMap((v) => (typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe("imageMediaType", () => {
  it("knows PNG, JPEG, GIF and WebP by their first bytes", () => {
    expect(imageMediaType(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0, 0))).toBe("image/png");
    expect(imageMediaType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(imageMediaType(bytes("GIF89a", 1, 0))).toBe("image/gif");
    expect(imageMediaType(bytes("GIF87a"))).toBe("image/gif");
    expect(imageMediaType(bytes("RIFF", 0, 0, 0, 0, "WEBPVP8 "))).toBe("image/webp");
  });

  it("is not fooled by a name, a short file, SVG, HTML or another RIFF file", () => {
    expect(imageMediaType(bytes(0x89, "PN"))).toBeUndefined();
    expect(imageMediaType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(imageMediaType(bytes("<!DOCTYPE html>"))).toBeUndefined();
    expect(imageMediaType(bytes("RIFF", 0, 0, 0, 0, "WAVEfmt "))).toBeUndefined();
    expect(imageMediaType(new Uint8Array(0))).toBeUndefined();
  });

  it("names the file by its kind", () => {
    expect(imageExtension("image/jpeg")).toBe("jpg");
    expect(imageExtension("image/webp")).toBe("webp");
  });
});
