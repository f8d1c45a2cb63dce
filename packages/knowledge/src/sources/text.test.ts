import { describe, expect, it } from "vitest";
import { textKind } from "./text.js";

describe("the kinds of file read", () => {
  it("goes by the media type, else the extension", () => {
    expect(textKind("a.bin", "application/pdf")).toBe("pdf");
    expect(textKind("report.PDF", "application/octet-stream")).toBe("pdf");
    expect(textKind("a", "text/html; charset=utf-8")).toBe("html");
    expect(textKind("page.htm", "")).toBe("html");
    expect(textKind("README.md", "text/plain")).toBe("markdown");
    expect(textKind("notes", "text/plain")).toBe("text");
    expect(textKind("notes.txt", "")).toBe("text");
    expect(textKind("tool.exe", "application/octet-stream")).toBeUndefined();
    expect(textKind("image.png", "image/png")).toBeUndefined();
  });
});
